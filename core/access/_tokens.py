"""Bearer tokens for the HTTP server: made, listed, revoked and checked against the workspace store.

A token is 32 random bytes (``secrets``), shown once when it is made. The
store keeps only its SHA-256 digest: a stolen database gives no usable
token, and a 256-bit secret needs no slow password hash. Checking compares
digests in constant time.

A server checks the same token on every request, so a live token's check is
remembered for ``VERIFIED_FOR`` seconds: a revocation takes effect at once
in the process that revokes, and within that time in every other process
(docs/serve.md). A failed check is never remembered.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import time
from dataclasses import dataclass
from typing import Any

from ..echo_text import quoted
from ._roles import ROLES

TOKEN_PREFIX = "opg_"
_NAME = re.compile(r"^[a-z0-9][a-z0-9_.@-]{0,63}$")
VERIFIED_FOR = 2.0
"""Seconds a live token's check is remembered by a process (the longest a revocation elsewhere takes to reach it)."""
RESERVED_NAMES = ("local",)
"""``local`` is every unauthenticated caller's name; a token may not take it."""


class TokenError(ValueError):
    """A token cannot be made or revoked as asked; the message says why and what to do."""


@dataclass(frozen=True)
class IssuedToken:
    """A new token: ``secret`` exists only here, never in the store."""

    name: str
    role: str
    secret: str
    created_at: str


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


def check_name(name: str) -> None:
    if not _NAME.match(name):
        raise TokenError(f"a token name is 1-64 lower-case letters, digits and . _ @ -, starting with a letter or digit; not {name!r}")
    if name in RESERVED_NAMES:
        raise TokenError(f"{name!r} is the name of unauthenticated callers; pick another")


def check_role(role: str) -> None:
    if role not in ROLES:
        raise TokenError(f"a role is one of {', '.join(ROLES)}; not {role!r}")


class TokenBook:
    """The tokens of one workspace store (anything with ``read()`` and ``write()`` transactions)."""

    def __init__(self, store: Any, *, verified_for: float = VERIFIED_FOR):
        self._store = store
        self._verified_for = verified_for
        # digest -> (name, role, until): live tokens checked lately (a few per team, so no bound beyond expiry).
        self._verified: dict[str, tuple[str, str, float]] = {}
        self._lock = threading.Lock()

    def create(self, name: str, role: str) -> IssuedToken:
        """A new token for ``name``; a live token of that name must be revoked first."""
        check_name(name)
        check_role(role)
        secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
        with self._store.write() as tx:
            row = tx.put_api_token(name, role, token_digest(secret))
        return IssuedToken(name, role, secret, row["created_at"])

    def list(self) -> list[dict[str, Any]]:
        """Every token without its digest: ``{name, role, created_at, revoked_at}``."""
        with self._store.read() as tx:
            rows = tx.api_tokens()
        return [{k: v for k, v in row.items() if k != "token_hash"} for row in rows]

    def revoke(self, name: str) -> dict[str, Any]:
        with self._store.write() as tx:
            row = tx.revoke_api_token(name)
        with self._lock:
            self._verified = {digest: seen for digest, seen in self._verified.items() if seen[0] != name}
        if row is None:
            raise TokenError(f"no live token is named {quoted(name)}; `opgate token list` shows them")
        return {k: v for k, v in row.items() if k != "token_hash"}

    def has_live_tokens(self) -> bool:
        with self._store.read() as tx:
            return any(row["revoked_at"] is None for row in tx.api_tokens())

    def verify(self, secret: str) -> tuple[str, str] | None:
        """``(name, role)`` of the live token ``secret`` is, or ``None``."""
        if not secret.startswith(TOKEN_PREFIX):
            return None
        digest = token_digest(secret)
        found = self._remembered(digest)
        if found is not None:
            return found
        with self._store.read() as tx:
            row = tx.api_token(digest)
        # The lookup found a row by digest; comparing again in constant time costs nothing and keeps the check honest.
        if row is None or row["revoked_at"] is not None or not hmac.compare_digest(row["token_hash"], digest):
            return None
        with self._lock:
            self._verified[digest] = (row["name"], row["role"], time.monotonic() + self._verified_for)
        return row["name"], row["role"]

    def verified_lately(self, secret: str) -> tuple[str, str] | None:
        """``(name, role)`` if ``secret`` was checked live within ``VERIFIED_FOR`` seconds; no store access (safe on an event loop)."""
        if not secret.startswith(TOKEN_PREFIX):
            return None
        return self._remembered(token_digest(secret))

    def _remembered(self, digest: str) -> tuple[str, str] | None:
        with self._lock:
            seen = self._verified.get(digest)
            if seen is None:
                return None
            if seen[2] <= time.monotonic():
                del self._verified[digest]
                return None
        return seen[0], seen[1]
