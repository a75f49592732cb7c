"""Idempotency keys with Stripe's semantics.

The first response for (caller, key) is stored with a fingerprint of
(op, args) in the same transaction as the write, so a write and its record
commit or vanish together. A repeat with the same fingerprint replays the
stored response; with another fingerprint it is CONFLICT. Writes take the
write lock first (``BEGIN IMMEDIATE``), so duplicates that arrive together are
serialised: the first one runs, the rest find its record and replay it.
Validation failures and dry-runs are never stored.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from ._errors import ConflictError


def fingerprint(op: str, args: dict[str, Any]) -> str:
    canonical = json.dumps({"op": op, "args": args}, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(canonical.encode()).hexdigest()


def stored_response(tx: Any, caller: str, key: str, print_: str) -> dict[str, Any] | None:
    """The response stored for this key, or ``None``; CONFLICT if the key was used for another call."""
    record = tx.get_idempotency_key(caller, key)
    if record is None:
        return None
    if record["fingerprint"] != print_:
        raise ConflictError(
            f"idempotency key {key!r} was already used for a different call; use a new key for new arguments",
            idempotency_key=key,
        )
    return record["response"]
