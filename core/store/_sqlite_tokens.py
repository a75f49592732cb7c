"""SQL for the HTTP server's bearer tokens (see core/access/_tokens.py for what they mean).

Like pins and idempotency keys, tokens are bookkeeping: not entities, not
part of a ChangeSet, a state digest, a dump or a demo reset.
"""

from __future__ import annotations

from typing import Any

from ._errors import Conflict
from ._sqlite_base import SQLiteTxCore

_COLUMNS = ("name", "role", "token_hash", "created_at", "revoked_at")
_SELECT = f"SELECT {', '.join(_COLUMNS)} FROM api_tokens"


def _row(values: tuple) -> dict[str, Any]:
    return dict(zip(_COLUMNS, values, strict=True))


class TokenReads(SQLiteTxCore):
    def api_token(self, token_hash: str) -> dict[str, Any] | None:
        """The token whose digest this is (revoked ones too), or ``None``."""
        rows = self._fetch(f"{_SELECT} WHERE token_hash = ?", (token_hash,))
        return _row(rows[0]) if rows else None

    def api_tokens(self) -> list[dict[str, Any]]:
        """Every token, revoked ones included, by name."""
        return [_row(r) for r in self._fetch(f"{_SELECT} ORDER BY name")]


class TokenWrites(TokenReads):
    def put_api_token(self, name: str, role: str, token_hash: str) -> dict[str, Any]:
        """Add a token; a revoked one of the same name is replaced, a live one is a :class:`Conflict`."""
        rows = self._fetch(f"{_SELECT} WHERE name = ?", (name,))
        if rows and _row(rows[0])["revoked_at"] is None:
            raise Conflict(f"a token named {name!r} exists already; revoke it first, or pick another name", kind="api_token", id=name)
        if rows:
            self._run("DELETE FROM api_tokens WHERE name = ?", (name,))
        now = self._clock()
        self._run(
            "INSERT INTO api_tokens (name, role, token_hash, created_at, revoked_at) VALUES (?, ?, ?, ?, NULL)",
            (name, role, token_hash, now),
        )
        return {"name": name, "role": role, "token_hash": token_hash, "created_at": now, "revoked_at": None}

    def revoke_api_token(self, name: str) -> dict[str, Any] | None:
        """Mark the token revoked (from now on it is refused); ``None`` if there is no live token by that name."""
        if not self._run("UPDATE api_tokens SET revoked_at = ? WHERE name = ? AND revoked_at IS NULL", (self._clock(), name)):
            return None
        return _row(self._fetch(f"{_SELECT} WHERE name = ?", (name,))[0])
