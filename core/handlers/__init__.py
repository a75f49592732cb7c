"""The handlers of the built-in catalogue: a table from op to handler.

Each module owns the handlers of one area and exposes a ``HANDLERS`` dict;
:func:`builtin_handlers` joins them. Handlers receive a
:class:`~opgate.core.exec.HandlerContext` and the validated arguments, act on
the store transaction they are given, and return a JSON-serialisable result.
Domain failures are raised as the store's errors or as ``OpError``
subclasses; the dispatcher turns them into envelopes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator, Mapping
from importlib import import_module

from ..exec._handler import Handler

# Reads first: a one-shot ``opgate exec`` of a read then imports only the read table (bench/bench_cli.py).
_TABLES = ("._read_table", "._write_table", "._web_table")


class BuiltinHandlers(Mapping[str, Handler]):
    """The built-in op table; each area's table is imported when a lookup reaches it.

    A lookup tries the tables in order and stops at the first that has the op.
    Listing the table (or its length) loads them all; an op found in two
    tables is refused whenever the second one loads. Loading holds a lock:
    the HTTP server looks ops up from many threads at once, and a lookup
    must never see the tables half loaded (another thread's table taken off
    the list but not yet joined).
    """

    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}
        self._unloaded = list(_TABLES)
        self._loading = threading.Lock()

    def _load_next(self) -> None:
        # The table leaves the list only once joined: a failed import is tried again, never left out for good.
        module = import_module(self._unloaded[0], __name__)
        overlap = self._handlers.keys() & module.HANDLERS.keys()
        if overlap:
            raise RuntimeError(f"ops with two handlers: {sorted(overlap)}")
        self._handlers.update(module.HANDLERS)
        self._unloaded.pop(0)

    @property
    def loaded(self) -> dict[str, Handler]:
        """The handlers of the tables loaded so far: it only grows, and an op's handler in it never changes."""
        return self._handlers

    def __getitem__(self, op: str) -> Handler:
        handler = self._handlers.get(op)
        if handler is not None:
            return handler
        with self._loading:
            while op not in self._handlers and self._unloaded:
                self._load_next()
        return self._handlers[op]

    def get(self, op: str, default: Handler | None = None) -> Handler | None:  # type: ignore[override]
        # Mapping's get goes through __getitem__ and a KeyError; every exec asks twice.
        handler = self._handlers.get(op)
        if handler is not None:
            return handler
        try:
            return self[op]
        except KeyError:
            return default

    def __contains__(self, op: object) -> bool:
        return op in self._handlers or self.get(op) is not None  # type: ignore[arg-type]

    def _all(self) -> dict[str, Handler]:
        with self._loading:
            while self._unloaded:
                self._load_next()
        return self._handlers

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def builtin_handlers() -> BuiltinHandlers:
    return BuiltinHandlers()


__all__ = ["BuiltinHandlers", "builtin_handlers"]
