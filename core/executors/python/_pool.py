"""A small pool of handler workers, reused across calls, replaced when one has to be stopped."""

from __future__ import annotations

import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from ._worker_process import WorkerProcess


class NoWorkerFree(Exception):
    """Every worker stayed busy until the call's deadline."""


class PoolClosed(Exception):
    """The gateway is closing; no new call starts."""


def _stop_all(workers: set[WorkerProcess]) -> None:
    for worker in list(workers):
        worker.stop()
    workers.clear()


class WorkerPool:
    """At most ``size`` workers, started when a call needs one.

    A worker that answered goes back to the pool with its imported handlers
    (the next call skips the import); a worker that timed out, crashed or was
    interrupted is stopped and a fresh one takes its place on the next call.
    """

    def __init__(self, size: int, start: Callable[[], WorkerProcess] = WorkerProcess):
        self.size = max(1, size)
        self._start = start
        self._idle: list[WorkerProcess] = []
        self._all: set[WorkerProcess] = set()
        self._starting = 0
        self._closed = False
        self._changed = threading.Condition()
        # If the gateway is never closed, the workers still go when it is collected or exits.
        self._finalizer = weakref.finalize(self, _stop_all, self._all)

    @property
    def pids(self) -> list[int]:
        with self._changed:
            return [w.pid for w in self._all]

    def run(self, request: bytes, deadline: float, on_log: Callable[[dict[str, Any]], None], abandoned: threading.Event | None = None) -> dict[str, Any]:
        worker = self._acquire(deadline)
        try:
            answer = worker.call(request, deadline, on_log, abandoned)
        except BaseException:
            self._discard(worker)
            raise
        self._release(worker)
        return answer

    def _acquire(self, deadline: float) -> WorkerProcess:
        with self._changed:
            while True:
                if self._closed:
                    raise PoolClosed()
                self._idle = [w for w in self._idle if w.alive or self._forget(w)]
                if self._idle:
                    return self._idle.pop()
                if len(self._all) + self._starting < self.size:
                    self._starting += 1
                    break
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise NoWorkerFree()
                self._changed.wait(remaining)
        try:
            worker = self._start()
        finally:
            with self._changed:
                self._starting -= 1
                self._changed.notify()
        with self._changed:
            if not self._closed:
                self._all.add(worker)
                return worker
        worker.stop()
        raise PoolClosed()

    def _forget(self, worker: WorkerProcess) -> bool:
        worker.stop()
        self._all.discard(worker)
        return False

    def _release(self, worker: WorkerProcess) -> None:
        with self._changed:
            if self._closed or worker not in self._all:
                closed = True
            else:
                closed = False
                self._idle.append(worker)
                self._changed.notify()
        if closed:
            worker.stop()

    def _discard(self, worker: WorkerProcess) -> None:
        worker.stop()
        with self._changed:
            self._all.discard(worker)
            self._changed.notify()

    def close(self) -> None:
        """Stop every worker, idle or busy; calls still running get a failure, not a hang."""
        with self._changed:
            self._closed = True
            self._idle = []
            self._changed.notify_all()
        self._finalizer()
