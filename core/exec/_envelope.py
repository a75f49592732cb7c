"""The two envelopes exec returns: success and error."""

from __future__ import annotations

import os
from typing import Any

_DRAWN = 64
"""Trace ids drawn from the system's random source at a time: one read of 512 bytes instead of one per call."""
_drawn: list[str] = []


def new_trace_id() -> str:
    # secrets.token_hex(8) is exactly this; importing secrets (random, hmac, base64) costs a command line ~2 ms.
    try:
        return _drawn.pop()  # atomic: threads never share an id
    except IndexError:
        pass
    block = os.urandom(8 * _DRAWN).hex()
    _drawn.extend("tr_" + block[start:start + 16] for start in range(16, 16 * _DRAWN, 16))
    return "tr_" + block[:16]


if hasattr(os, "register_at_fork"):
    # A forked child must draw its own: ids left from the parent's draw would be the parent's too.
    os.register_at_fork(after_in_child=_drawn.clear)


def success(op: str, result: Any, trace_id: str, latency_ms: float, warnings: list[str], meta: dict[str, Any] | None = None) -> dict[str, Any]:
    """A success envelope; ``meta``'s keys follow the three every answer has (a dict, not keywords: every exec passes here)."""
    return {
        "op": op,
        "ok": True,
        "result": result,
        "meta": {"trace_id": trace_id, "latency_ms": to_hundredths(latency_ms), "warnings": warnings, **meta} if meta else
                {"trace_id": trace_id, "latency_ms": to_hundredths(latency_ms), "warnings": warnings},
    }


def to_hundredths(value: float) -> float:
    """``round(value, 2)`` of a time that is not negative, to within the float's last digit, at a tenth of the cost.

    ``round`` with digits formats the number as decimal text and parses it
    back (about 3 k instructions, twice on every exec); the nearest
    multiple of 0.01 found by an add and a truncation is the same value but
    where ``value * 100`` lands within a rounding error of a half
    (tests/exec/test_rounded_times.py compares them).
    """
    return int(value * 100 + 0.5) / 100


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
