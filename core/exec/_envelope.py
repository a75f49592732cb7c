"""The two envelopes exec returns: success and error."""

from __future__ import annotations

import os
from typing import Any


def new_trace_id() -> str:
    # secrets.token_hex(8) is exactly this; importing secrets (random, hmac, base64) costs a command line ~2 ms.
    return "tr_" + os.urandom(8).hex()


def success(op: str, result: Any, *, trace_id: str, latency_ms: float, warnings: list[str], **meta: Any) -> dict[str, Any]:
    return {
        "op": op,
        "ok": True,
        "result": result,
        "meta": {"trace_id": trace_id, "latency_ms": round(latency_ms, 2), "warnings": warnings, **meta},
    }


def failure(
    op: str,
    code: str,
    message: str,
    *,
    help_path: str,
    field_errors: list[dict[str, Any]] | None = None,
    trace_id: str | None = None,
    **details: Any,
) -> dict[str, Any]:
    """An error envelope. ``help_path`` always points somewhere that helps (the op, or the nearest group)."""
    envelope: dict[str, Any] = {
        "op": op,
        "ok": False,
        "error": {
            "code": code,
            "message": message,
            "details": {"field_errors": field_errors or [], **{k: v for k, v in details.items() if v is not None}},
            "help_path": help_path,
        },
    }
    if trace_id:
        envelope["meta"] = {"trace_id": trace_id}
    return envelope
