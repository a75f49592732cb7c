"""Per-client state for a host that serves many clients, bounded in number and in idle time."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

MAX_SESSIONS = 1024
IDLE_SECONDS = 30 * 60.0  # as the MCP SDK forgets an idle HTTP session


class SessionTable(Generic[K, V]):
    """The state of each client by its key (any hashable value), made on first use by ``make(key)``.

    Memory cannot grow without limit: a client unseen for ``idle_seconds`` is
    forgotten, and when ``max_sessions`` are held the least recently used one
    makes room. A forgotten client that comes back starts afresh (no current
    project, no loop-guard history); its idempotency keys live in the store
    under its caller name, so they survive. ``on_evict`` hears each value
    dropped, to release what it holds.
    """

    def __init__(
        self,
        make: Callable[[K], V],
        *,
        max_sessions: int = MAX_SESSIONS,
        idle_seconds: float = IDLE_SECONDS,
        on_evict: Callable[[V], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ):
        if max_sessions < 1 or not idle_seconds > 0:
            raise ValueError("max_sessions must be at least 1 and idle_seconds above 0")
        self._make = make
        self.max_sessions = max_sessions
        self.idle_seconds = idle_seconds
        self._on_evict = on_evict
        self._clock = clock
        self._entries: OrderedDict[K, tuple[V, float]] = OrderedDict()
        self._lock = threading.Lock()
        self.evicted = 0

    def get(self, key: K) -> V:
        """The client's state, made now if it is new (or was forgotten)."""
        now = self._clock()
        dropped: list[V] = []
        with self._lock:
            self._expire(now, dropped)
            entry = self._entries.pop(key, None)
            value = entry[0] if entry is not None else self._make(key)
            self._entries[key] = (value, now)
            while len(self._entries) > self.max_sessions:
                dropped.append(self._entries.popitem(last=False)[1][0])
        self._evict(dropped)
        return value

    def drop(self, key: K) -> None:
        """Forget a client now (its connection closed)."""
        with self._lock:
            entry = self._entries.pop(key, None)
        self._evict([entry[0]] if entry is not None else [])

    def __len__(self) -> int:
        return len(self._entries)

    def __contains__(self, key: object) -> bool:
        return key in self._entries

    def _expire(self, now: float, dropped: list[V]) -> None:
        # Oldest first: the first entry still fresh ends the sweep.
        while self._entries:
            key, (value, seen) = next(iter(self._entries.items()))
            if now - seen < self.idle_seconds:
                return
            del self._entries[key]
            dropped.append(value)

    def _evict(self, values: list[V]) -> None:
        self.evicted += len(values)
        if self._on_evict is not None:
            for value in values:
                self._on_evict(value)
