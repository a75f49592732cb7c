"""Executors: how ops run. The dispatcher validates, authorizes and confirms; an executor runs.

Every op record carries a :class:`~opgate.core.catalog.Binding` that names
its executor kind. One module (or package) per kind:

- ``store``: the built-in ops against the workspace store
  (:mod:`.store`; its table of handlers is :mod:`opgate.core.handlers`);
- ``python``: a tool folder's ``handler.py``, in worker processes (:mod:`.python`);
- ``mcp``: a tool of an upstream MCP server (:mod:`.mcp`);
- ``none``: browse-only ops, which explain why they cannot run (:mod:`.unavailable`).

Each executor says what dry-run means for it (``meta.dry_run_kind``):
``rollback`` (run, then roll back, with ``meta.diff``), ``preview`` (nothing
is sent; ``meta.preview`` shows what would be), ``native`` (the executor
rehearses the call itself) or ``read`` (a read declared free of effects
runs for real).
"""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._base import DRY_RUN_KINDS, NATIVE, PREVIEW, READ, ROLLBACK, Executor, Invocation, Outcome
from ._redact import redact
from ._set import Executors
from .unavailable import NotRunnable

if _typing.TYPE_CHECKING:
    from .store import StoreExecutor

# The store executor loads the store's modules: a gateway that only answers help, or guards a
# catalogue's built-in ops (_defaults), never needs it.
__getattr__ = _lazy_attributes(__name__, globals(), {"StoreExecutor": ".store"})

__all__ = [
    "DRY_RUN_KINDS",
    "NATIVE",
    "PREVIEW",
    "READ",
    "ROLLBACK",
    "Executor",
    "Executors",
    "Invocation",
    "NotRunnable",
    "Outcome",
    "StoreExecutor",
    "redact",
]
