"""SQL for what several HTTP server processes on one workspace share (see docs/serve.md).

Pending confirmations and named sessions' remembered state are bookkeeping,
like tokens and idempotency keys: not entities, not part of a ChangeSet, a
state digest, a dump or a copy. Times are given by the caller (text in one
fixed format, so that they compare as text), because expiry needs finer
steps than the store's clock's whole seconds.
"""

from __future__ import annotations

import json
from typing import Any

from ._sqlite_base import SQLiteTxCore

PENDING_COLUMNS = (
    "state_hash", "caller", "call_fingerprint", "op", "args_fingerprint", "state_digest", "id_seed", "done_steps",
    "created_at", "expires_at",
)
_SELECT_PENDING = f"SELECT {', '.join(PENDING_COLUMNS)} FROM pending_confirmations"


def _pending(values: tuple) -> dict[str, Any]:
    row = dict(zip(PENDING_COLUMNS, values, strict=True))
    row["done_steps"] = json.loads(row["done_steps"]) if row["done_steps"] is not None else None
    return row


class ServingReads(SQLiteTxCore):
    def pending_confirmation_counts(self, caller: str, now: str) -> tuple[int, int]:
        """How many confirmations wait unexpired: ``(for this caller, in all)``."""
        mine = self._fetch("SELECT count(*) FROM pending_confirmations WHERE caller = ? AND expires_at > ?", (caller, now))[0][0]
        total = self._fetch("SELECT count(*) FROM pending_confirmations WHERE expires_at > ?", (now,))[0][0]
        return mine, total

    def client_session_state(self, session_key: str, fresh_since: str) -> dict[str, Any] | None:
        """A named session's remembered state, if it was written at or after ``fresh_since``."""
        rows = self._fetch("SELECT state FROM client_sessions WHERE session_key = ? AND updated_at >= ?", (session_key, fresh_since))
        return json.loads(rows[0][0]) if rows else None


class ServingWrites(ServingReads):
    def put_pending_confirmation(self, row: dict[str, Any]) -> None:
        """Keep a confirmation that waits for its answer; expired ones go at the same time."""
        self._run("DELETE FROM pending_confirmations WHERE expires_at <= ?", (row["created_at"],))
        values = dict(row, done_steps=json.dumps(row["done_steps"], ensure_ascii=False) if row.get("done_steps") is not None else None)
        self._run(
            f"INSERT INTO pending_confirmations ({', '.join(PENDING_COLUMNS)}) VALUES ({', '.join('?' * len(PENDING_COLUMNS))})",
            tuple(values.get(name) for name in PENDING_COLUMNS),
        )

    def claim_pending_confirmation(self, state_hash: str, caller: str, call_fingerprint: str, now: str) -> dict[str, Any] | None:
        """Take the confirmation waiting under ``state_hash`` for this caller and call: it is gone for anyone else.

        ``None`` when there is none, it expired, or it belongs to another
        caller or call (then it stays for its own caller to answer).
        """
        rows = self._fetch(f"{_SELECT_PENDING} WHERE state_hash = ?", (state_hash,))
        if not rows:
            return None
        row = _pending(rows[0])
        if row["caller"] != caller or row["call_fingerprint"] != call_fingerprint:
            return None
        self._run("DELETE FROM pending_confirmations WHERE state_hash = ?", (state_hash,))
        return row if row["expires_at"] > now else None

    def put_client_session_state(self, session_key: str, state: dict[str, Any], now: str, *, forget_before: str) -> None:
        """Keep a named session's state; sessions idle since ``forget_before`` go at the same time."""
        self._run("DELETE FROM client_sessions WHERE updated_at < ?", (forget_before,))
        self._run(
            "INSERT OR REPLACE INTO client_sessions (session_key, state, updated_at) VALUES (?, ?, ?)",
            (session_key, json.dumps(state, ensure_ascii=False, sort_keys=True), now),
        )
