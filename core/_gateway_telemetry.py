"""The gateway's telemetry listeners and call log."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .telemetry import CallEvent


class GatewayTelemetry:
    """Listeners and the call log (a part of :class:`~opgate.core.Gateway`)."""

    def recent_calls(self, limit: int = 50) -> list[dict[str, Any]]:
        """The newest exec entries of the call log, across sessions (this gateway's queued ones written first)."""
        return self._call_log.recent(limit)

    def add_listener(self, listener: Callable[[CallEvent], Any]) -> Callable[[], None]:
        """Call ``listener(event)`` with a :class:`~opgate.core.telemetry.CallEvent` after every call.

        Listeners run in the calling thread once the answer is ready; an
        exception from one is logged and never reaches the caller. Returns a
        function that removes the listener.
        """
        return self.telemetry.add_listener(listener)

    def remove_listener(self, listener: Callable[[CallEvent], Any]) -> None:
        self.telemetry.remove_listener(listener)

    def call_log_since(self, since: str | None = None, *, limit: int = 100_000) -> list[dict[str, Any]]:
        """Call-log entries of every kind from ``since`` (``YYYY-MM-DDTHH:MM:SSZ``) on, oldest first."""
        return self._call_log.since(since, limit=limit)
