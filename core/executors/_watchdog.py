"""One thread that fires the hard timeouts of every call in the process.

Starting a timer thread per call cost up to a millisecond and made the p95
latency ten times worse; a single watchdog with a heap of deadlines costs a
heap push per call. The watchdog thread is woken only when a new deadline
comes before the one it sleeps towards: calls share one timeout, so a new
call's deadline is almost always the latest, and waking the thread on every
call (a thread switch and a fresh wait) cost more CPU than the read it
guards.
"""

from __future__ import annotations

import heapq
import itertools
import os
import threading
import time
from collections.abc import Callable


class Watch:
    """A registered deadline; ``cancel()`` it when the call is done."""

    __slots__ = ("callback", "cancelled", "fired")

    def __init__(self, callback: Callable[[], None]):
        self.callback = callback
        self.cancelled = False
        self.fired = False

    def cancel(self) -> None:
        self.cancelled = True


class Watchdog:
    def __init__(self) -> None:
        self._heap: list[tuple[float, int, Watch]] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        # The deadline the thread sleeps towards (infinity: it waits for work); only an earlier one needs to wake it.
        self._sleeping_until = float("-inf")

    def watch(self, deadline: float, callback: Callable[[], None]) -> Watch:
        """Call ``callback`` (on the watchdog thread) when ``time.monotonic()`` passes ``deadline``, unless cancelled first."""
        entry = Watch(callback)
        wake = self._wake
        # The condition's own lock, taken directly: ``with wake`` costs two Python calls on every call.
        wake.acquire()
        try:
            heap = self._heap
            # Calls share one timeout, so the earliest deadlines are those of calls long finished:
            # dropping them here keeps the heap as small as the calls in flight, not 30 s worth of calls.
            while heap and heap[0][2].cancelled:
                heapq.heappop(heap)
            heapq.heappush(heap, (deadline, next(self._order), entry))
            if self._thread is None:  # the thread runs until the process ends; a forked child starts its own (see _forget)
                self._thread = threading.Thread(target=self._loop, name="opgate-watchdog", daemon=True)
                self._thread.start()
            elif deadline < self._sleeping_until:
                wake.notify()
        finally:
            wake.release()
        return entry

    def _loop(self) -> None:
        while True:
            with self._wake:
                while self._heap and self._heap[0][2].cancelled:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._sleeping_until = float("inf")
                    self._wake.wait()
                    continue
                deadline, _, entry = self._heap[0]
                wait = deadline - time.monotonic()
                if wait > 0:
                    # A later deadline pushed meanwhile is found when this one comes due.
                    self._sleeping_until = deadline
                    self._wake.wait(timeout=wait)
                    continue
                self._sleeping_until = float("-inf")  # awake: whatever is pushed now is seen on the next turn
                heapq.heappop(self._heap)
            if not entry.cancelled:
                entry.fired = True
                try:
                    entry.callback()
                except Exception:  # a failing callback must not stop every other timeout
                    pass


    def _forget(self) -> None:
        """After fork: the parent's thread is not in the child, and its deadlines are the parent's calls'."""
        self._heap = []
        self._wake = threading.Condition()
        self._thread = None
        self._sleeping_until = float("-inf")


WATCHDOG = Watchdog()
if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=WATCHDOG._forget)
