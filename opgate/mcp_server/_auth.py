"""Who is calling the HTTP server: bearer tokens, the caller in each request, and a rate per caller.

The SDK does the OAuth-shaped parts: its ``BearerAuthBackend`` turns a valid
``Authorization: Bearer`` header into ``scope["user"]``, its
``RequireAuthMiddleware`` answers a request without one with 401 and a
``WWW-Authenticate`` header naming the protected-resource metadata, and it
serves that document (RFC 9728). This module gives it a verifier backed by
the workspace's token table, and adds :class:`CallerMiddleware`, which puts
the :class:`~opgate.core.access.Caller` in ``scope["opgate.caller"]`` (and
the ``acting_as`` context variable) and answers 429 with ``Retry-After``
when a caller spends its rate.

opgate issues its own tokens (``opgate token create``); there is no OAuth
authorization server behind it, so the metadata names the server itself
and clients send the token they were given as a header.
"""

from __future__ import annotations

import json
import logging
import math
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import anyio.to_thread
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.types import ASGIApp, Receive, Scope, Send

from opgate.core.access import Caller, SharedRate, TokenBook, acting_as
from opgate.core.exec import Session
from opgate.core.store import StoreError

log = logging.getLogger(__name__)

CALLER_SCOPE_KEY = "opgate.caller"
"""Where a request's :class:`Caller` sits in the ASGI scope (absent: an unauthenticated local caller)."""


class StoreTokenVerifier:
    """The SDK's ``TokenVerifier``, answered from the workspace's token table (off the event loop)."""

    def __init__(self, book: TokenBook):
        self._book = book

    async def verify_token(self, token: str) -> AccessToken | None:
        # A token checked a moment ago needs no thread and no database round trip.
        found = self._book.verified_lately(token) or await anyio.to_thread.run_sync(self._book.verify, token)
        if found is None:
            return None
        name, role = found
        return AccessToken(token=token, client_id=name, scopes=[role])


@dataclass
class TokenBucket:
    """``rate`` requests a second on average, up to ``burst`` at once."""

    rate: float
    burst: int
    stamp: float
    tokens: float = field(init=False)

    def __post_init__(self) -> None:
        self.tokens = float(self.burst)

    def take(self, now: float) -> float:
        """Spend one request; return 0 if allowed, else the seconds until one is."""
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.rate


class RateLimits:
    """One :class:`TokenBucket` per caller name; ``rate`` 0 means no limit.

    With ``shared`` (a PostgreSQL workspace), the buckets are the database's,
    so a caller's rate holds for the whole service however a load balancer
    spreads its requests; if the database cannot answer, this process's own
    bucket decides, so a request is never refused for want of a count.
    """

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic, *, shared: SharedRate | None = None):
        self.rate = rate
        self.burst = burst
        self._clock = clock
        self._shared = shared
        self._buckets: dict[str, TokenBucket] = {}
        self._lock = threading.Lock()

    async def spend(self, name: str) -> float:
        """0 if ``name`` may send a request now, else the seconds to wait (off the event loop when it asks the database)."""
        if self.rate <= 0:
            return 0.0
        if self._shared is not None:
            try:
                return await anyio.to_thread.run_sync(self._shared, name, self.rate, self.burst)
            except StoreError as exc:
                log.warning("the shared rate of %s could not be counted (%s); this process's own bucket decides", name, exc)
        return self.wait_for(name)

    def wait_for(self, name: str) -> float:
        """0 if ``name`` may send a request now, else the seconds to wait."""
        if self.rate <= 0:
            return 0.0
        with self._lock:
            now = self._clock()
            bucket = self._buckets.get(name)
            if bucket is None:
                bucket = self._buckets[name] = TokenBucket(self.rate, self.burst, now)
            return bucket.take(now)


class CallerSessions:
    """One :class:`Session` per caller name, so callers never share remembered ids or idempotency keys."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}
        self._lock = threading.Lock()

    def caller(self, name: str, role: str) -> Caller:
        with self._lock:
            session = self._sessions.get(name)
            if session is None:
                session = self._sessions[name] = Session(caller=name)
        return Caller(name, role, session)


def caller_of_user(user: Any, sessions: CallerSessions) -> Caller | None:
    """The caller an authenticated request's ``scope["user"]`` stands for, or ``None``."""
    if not isinstance(user, AuthenticatedUser):
        return None
    token = user.access_token
    return sessions.caller(token.client_id, token.scopes[0] if token.scopes else "reader")


class CallerMiddleware:
    """Names the caller of each HTTP request and holds it to its rate.

    Runs after the SDK's authentication middleware (``scope["user"]`` is
    set for a valid token). Requests without a valid token pass through
    untouched: the route answers them with 401 when authentication is on.
    """

    def __init__(self, app: ASGIApp, *, sessions: CallerSessions, limits: RateLimits):
        self.app = app
        self.sessions = sessions
        self.limits = limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        caller = caller_of_user(scope.get("user"), self.sessions)
        if caller is not None:
            wait = await self.limits.spend(caller.name)
            if wait > 0:
                await _too_many_requests(send, caller.name, wait)
                return
            scope[CALLER_SCOPE_KEY] = caller
        with acting_as(caller):
            await self.app(scope, receive, send)


async def _too_many_requests(send: Send, name: str, wait: float) -> None:
    seconds = max(1, math.ceil(wait))
    body = json.dumps({"error": "rate_limited", "error_description": f"{name} sent requests faster than this server allows; retry after {seconds} s"}).encode()
    await send({
        "type": "http.response.start", "status": 429,
        "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode()), (b"retry-after", str(seconds).encode())],
    })
    await send({"type": "http.response.body", "body": body})


def request_caller(request: Any) -> Caller | None:
    """The caller of the HTTP request behind a tool call (``None`` over stdio or without authentication)."""
    scope = getattr(request, "scope", None)
    return scope.get(CALLER_SCOPE_KEY) if isinstance(scope, dict) else None
