"""Where a caller's rate is counted: in the database when every server process shares it, else in each process.

A PostgreSQL workspace may be served by several processes behind one load
balancer; a caller's rate must then be the service's, not each process's,
so the store keeps the buckets (``PostgresStore.spend_rate``). A SQLite
workspace is served by one process, whose buckets in memory are the whole
service's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

SharedRate = Callable[[str, float, int], float]
"""Spends one request of a caller's rate (name, requests per second, burst): 0, or the seconds to wait."""


def shared_rate(store: Any) -> SharedRate | None:
    """The store's shared rate buckets, or ``None`` when each process counts its own."""
    return getattr(store, "spend_rate", None)
