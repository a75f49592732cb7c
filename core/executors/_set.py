"""The executors of one gateway: which one runs an op, and their lifecycle."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from ..registry._record import OpRecord
from ._base import Executor
from .unavailable import NotRunnable, not_runnable

# kind -> a factory that makes the executor of one upstream (or of all handlers, for ``python``).
ExecutorFactory = Callable[[str | None], Executor]


class Executors:
    """Maps an op's binding to the executor that runs it.

    The store executor always exists; the others are made on first use
    (importing a handler runtime or connecting to a server costs time that
    a gateway which never calls them should not pay) and closed together.
    """

    def __init__(self, store: Any, factories: dict[str, ExecutorFactory] | None = None):
        self.store = store
        self._factories = dict(factories or {})
        self._open: dict[tuple[str, str | None], Executor] = {}
        self._lock = threading.Lock()

    def register(self, kind: str, factory: ExecutorFactory) -> None:
        self._factories[kind] = factory

    def add(self, kind: str, upstream: str | None, executor: Executor) -> None:
        """An executor made elsewhere (a connected upstream), to be used and closed with the others."""
        with self._lock:
            self._open[(kind, upstream)] = executor

    def opened(self) -> dict[tuple[str, str | None], Executor]:
        with self._lock:
            return dict(self._open)

    def for_record(self, record: OpRecord) -> Executor:
        binding = record.binding
        if binding.kind == "none":
            raise not_runnable(record)
        if binding.kind == "store":
            store = self.store
            # StoreExecutor.has's first test inline: a built-in op (nearly every call) answers without a Python call.
            if record.op not in store._quick and not store.has(record.op):
                raise NotRunnable(f"{record.op} has no built-in handler, so it cannot run here; its help and schema are available", runnable=False)
            return store
        key = (binding.kind, binding.upstream)
        with self._lock:
            executor = self._open.get(key)
            if executor is None:
                factory = self._factories.get(binding.kind)
                if factory is None:
                    raise NotRunnable(f"{record.op} runs on a {binding.kind} executor, and this gateway has none configured", runnable=False)
                executor = factory(binding.upstream)
                self._open[key] = executor
        return executor

    def close(self) -> None:
        with self._lock:
            executors, self._open = list(self._open.values()), {}
        for executor in executors:
            try:
                executor.close()
            except Exception:  # closing one executor must not keep the others open
                pass
