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


Watch = list
"""A registered deadline: ``[deadline, order, callback]``, the heap's own entry (see :meth:`Watchdog.watch`).

A plain list rather than an object: a call makes one, and a class's call (its
``__init__``) and the tuple around it for the heap cost more than the rest of
the watch. Lists order by their first items, so the heap never compares two
callbacks (the order is unique). Use :func:`cancel` and :func:`has_fired`.
"""

CALLBACK = 2
"""Where a watch keeps its callback; ``None`` once cancelled, :data:`FIRED` once fired."""


def _fired() -> None:
    """What a watch's callback becomes once the watchdog has called it."""


FIRED = _fired


def cancel(watch: Watch) -> None:
    """Stop ``watch`` from firing (nothing happens if it fired already)."""
    watch[CALLBACK] = None


def has_fired(watch: Watch) -> bool:
    """Whether the watchdog called ``watch``'s callback (before any cancel that followed)."""
    return watch[CALLBACK] is FIRED


class Watchdog:
    def __init__(self) -> None:
        self._heap: list[Watch] = []
        self._order = itertools.count()
        self._wake = threading.Condition()
        self._thread: threading.Thread | None = None
        # The deadline the thread sleeps towards (infinity: it waits for work); only an earlier one needs to wake it.
        self._sleeping_until = float("-inf")

    def watch(self, deadline: float, callback: Callable[[], None]) -> Watch:
        """Call ``callback`` (on the watchdog thread) when ``time.monotonic()`` passes ``deadline``, unless cancelled first.

        A watch fires at most once; :func:`cancel` it when the call is done, and
        :func:`has_fired` says whether it fired (a callback that fails counts).
        """
        entry = [deadline, next(self._order), callback]
        wake = self._wake
        # The condition's own lock, taken directly: ``with wake`` costs two Python calls on every call.
        wake.acquire()
        try:
            heap = self._heap
            # Calls share one timeout, so the earliest deadlines are those of calls long finished:
            # dropping them here keeps the heap as small as the calls in flight, not 30 s worth of calls.
            while heap and heap[0][CALLBACK] is None:
                heapq.heappop(heap)
            heapq.heappush(heap, entry)
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
                while self._heap and self._heap[0][CALLBACK] is None:
                    heapq.heappop(self._heap)
                if not self._heap:
                    self._sleeping_until = float("inf")
                    self._wake.wait()
                    continue
                entry = self._heap[0]
                wait = entry[0] - time.monotonic()
                if wait > 0:
                    # A later deadline pushed meanwhile is found when this one comes due.
                    self._sleeping_until = entry[0]
                    self._wake.wait(timeout=wait)
                    continue
                self._sleeping_until = float("-inf")  # awake: whatever is pushed now is seen on the next turn
                heapq.heappop(self._heap)
                # Read and marked under the lock: a cancel from now on changes nothing, and has_fired says so.
                callback = entry[CALLBACK]
                if callback is not None:
                    entry[CALLBACK] = FIRED
            if callback is not None:
                try:
                    callback()
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
