"""The handlers of the built-in catalogue: a table from op to handler.

Each module owns the handlers of one area and exposes a ``HANDLERS`` dict;
:func:`builtin_handlers` joins them. Handlers receive a
:class:`~opgate.core.exec.HandlerContext` and the validated arguments, act on
the store transaction they are given, and return a JSON-serialisable result.
Domain failures are raised as the store's errors or as ``OpError``
subclasses; the dispatcher turns them into envelopes.
"""

from __future__ import annotations

from ..exec._handler import Handler


def builtin_handlers() -> dict[str, Handler]:
    from . import _read_table, _web_table, _write_table

    table: dict[str, Handler] = {}
    for module in (_read_table, _write_table, _web_table):
        overlap = table.keys() & module.HANDLERS.keys()
        if overlap:
            raise RuntimeError(f"ops with two handlers: {sorted(overlap)}")
        table.update(module.HANDLERS)
    return table


__all__ = ["builtin_handlers"]
