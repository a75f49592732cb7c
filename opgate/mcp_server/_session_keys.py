"""Which client session a tool call belongs to: the transport's session, and the caller's identity.

A session is what one client's calls share: over stdio, the connection (one
per process); over streamable HTTP with the handshake protocol versions, the
``Mcp-Session-Id`` the transport issued. The 2026-07-28 protocol has no
session on HTTP: each request stands alone, so such a client gets a fresh
session per request unless it names one with the ``Opgate-Session`` header.

Authentication (when the HTTP server has it) adds the caller's identity to
the key, so that one caller can never land in another's session, whatever
session id it sends. :func:`scope_identity` reads the authenticated user
that Starlette's authentication middleware (the SDK's bearer-token auth
among them) puts in the ASGI scope; a server can pass its own resolver, and
an authentication layer that runs in the same task as the call may set
:data:`caller_identity` instead.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any

SESSION_HEADER = "opgate-session"
"""Names a session for 2026-07-28 HTTP clients, which have no transport session."""
MCP_SESSION_HEADER = "mcp-session-id"
STDIO = "stdio"

caller_identity: ContextVar[str | None] = ContextVar("opgate_caller_identity", default=None)
"""The authenticated caller of the running request, for authentication layers that set it per call."""

IdentityResolver = Callable[[Any], "str | None"]
"""Gives the caller's identity for a request (a Starlette ``Request``; ``None`` over stdio)."""


def _principal(user: Any) -> str | None:
    token = getattr(user, "access_token", None)
    if token is not None:
        # The SDK's bearer auth: the same principal it binds HTTP sessions to (client id, issuer, subject).
        from mcp.server.auth.provider import principal_components

        return "\x1f".join(part or "" for part in principal_components(token))
    try:
        identity = user.identity
    except (AttributeError, NotImplementedError):  # Starlette's BaseUser leaves identity to subclasses
        return None
    return identity if isinstance(identity, str) and identity else None


def scope_identity(request: Any) -> str | None:
    """The authenticated user's identity from the request's ASGI scope, else :data:`caller_identity`."""
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, dict) else None
    if user is not None and getattr(user, "is_authenticated", False):
        identity = _principal(user)
        if identity:
            return identity
    return caller_identity.get()


@dataclass(frozen=True)
class SessionKey:
    """Who is calling (``identity``, ``None`` when the server has no authentication) and in which session.

    ``transport`` is ``None`` for a 2026-07-28 HTTP request that named no
    session: it is served in a session of its own that nothing keeps.
    """

    identity: str | None
    transport: str | None
    name: str | None = field(default=None, compare=False)
    """The authenticated caller's name (its token's), when it has one: it then names the session in the log."""

    @property
    def kept(self) -> bool:
        return self.transport is not None

    @property
    def named(self) -> bool:
        """A session the client named (``Opgate-Session``): its requests may reach any server process."""
        return self.transport is not None and self.transport.startswith("named:")

    @property
    def text(self) -> str:
        return f"{self.identity or ''}\x00{self.transport or ''}"

    @property
    def caller(self) -> str:
        """The name of the session in the call log and the scope of its idempotency keys.

        A digest, not the session id itself: over HTTP without authentication
        the session id is all a client needs to act in that session, so it
        must not be written anywhere. A session nothing keeps shares its
        idempotency scope with its caller's other such requests, so that a
        retry still replays.
        """
        if self.name:
            # An authenticated caller is named in the audit log, and its retries replay in any of its sessions.
            return self.name
        scope = self.text if self.kept else f"{self.identity or 'anonymous'}\x00request"
        return "mcp:" + hashlib.sha256(scope.encode()).hexdigest()[:16]


def session_key(request: Any, identity: IdentityResolver = scope_identity, *, name: str | None = None) -> SessionKey:
    """The session of a call, from its HTTP request (``None`` over stdio); ``name`` is the authenticated caller's."""
    caller = identity(request)
    if request is None:
        return SessionKey(caller, STDIO, name)
    headers = getattr(request, "headers", None) or {}
    transport_id = headers.get(MCP_SESSION_HEADER)
    if transport_id:
        return SessionKey(caller, "http:" + transport_id, name)
    named = headers.get(SESSION_HEADER)
    if named:
        return SessionKey(caller, "named:" + named[:200], name)
    return SessionKey(caller, None, name)
