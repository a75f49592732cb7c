"""The call log: one entry per exec, kept in the workspace database.

The explorer's history reads it back. Logging runs after the call's own
transaction has closed, in a transaction of its own, so a dry-run's rollback
never loses its entry; and a logging failure is reported to the log, never
to the caller.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from collections.abc import Callable
from typing import Any

from ..safe_json import scrub_text

log = logging.getLogger("opgate.telemetry")


def _args_digest(args: Any) -> str:
    text = json.dumps(args, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


class CallLog:
    """Writes call-log entries through the store; ``enabled=False`` keeps nothing."""

    def __init__(self, store_provider: Callable[[], Any] | None, *, enabled: bool = True):
        self._store = store_provider
        self.enabled = enabled and store_provider is not None

    def entry(self, envelope: dict[str, Any], *, record: Any, call: Any, session: Any, requested: Any, args: Any, started: float) -> dict[str, Any]:
        args = scrub_text(args)  # refused arguments are logged too: text that is not Unicode, or nested too deeply, must not stop that
        meta = envelope.get("meta") or {}
        return {
            "trace_id": meta.get("trace_id", ""),
            "op": envelope.get("op") or (requested if isinstance(requested, str) else ""),
            "tool_name": record.tool_name if record else "",
            "duration_ms": round((time.perf_counter() - started) * 1000, 3),
            "ok": bool(envelope.get("ok")),
            "code": None if envelope.get("ok") else envelope["error"]["code"],
            "dry_run": bool(getattr(call, "dry_run", False)),
            "caller": getattr(session, "caller", ""),
            "args_digest": _args_digest(args),
            "args": args if isinstance(args, dict) else None,
        }

    def record(self, envelope: dict[str, Any], **context: Any) -> None:
        if not self.enabled:
            return
        try:
            entry = self.entry(envelope, **context)
            with self._store().write() as tx:
                tx.append_call_log(entry)
        except Exception:
            log.warning("could not write the call log entry", exc_info=True)

    def recent(self, limit: int = 50, **filters: Any) -> list[dict[str, Any]]:
        if not self.enabled:
            return []
        with self._store().read() as tx:
            return tx.recent_calls(limit, **filters)
