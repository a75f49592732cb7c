"""The executors every gateway starts with, and the rule that keeps built-in ops built-in."""

from __future__ import annotations

from functools import lru_cache

from .._record import replace
from ..catalog._tool import BUILTIN_CLAIM, Binding, LoadProblem
from ..registry._registry import Registry
from ._set import Executors

STORE = Binding("store")


def _python_factory(_upstream: str | None):
    from .python import PythonHandlerExecutor

    return PythonHandlerExecutor()


def default_executors(store) -> Executors:
    """The store executor, and tool-folder handlers made on first use."""
    return Executors(store, {"python": _python_factory})


@lru_cache(maxsize=1)
def _builtin_registry() -> Registry:
    from .._builtin import builtin_catalog_loads
    from ..registry._build import build_registry

    return build_registry(builtin_catalog_loads())


def _policy(record) -> tuple:
    return (record.kind, record.parameters, record.metadata, record.policy)


def guard_builtin_ops(registry: Registry) -> Registry:
    """A catalogue file may name a built-in op, but it cannot change how that op is guarded.

    A record that claims the built-in store executor gets it only if its
    schema, kind, metadata (confirmation included) and policy are the
    built-in op's own; otherwise it stays browse-only and the difference is
    reported. Handlers are bound by where a definition came from, never by
    its name alone.
    """
    if not any(record.binding == BUILTIN_CLAIM for record in registry):
        return registry  # nothing claims a built-in handler: the built-in registry is not even built
    builtin = _builtin_registry()
    records, problems = [], list(registry.problems)
    for record in registry:
        if record.binding == BUILTIN_CLAIM:
            original = builtin.get(record.op)
            if original is not None and _policy(original) == _policy(record):
                record = replace(record, binding=STORE)
            else:
                why = "differs from the built-in op of that name (schema, metadata or policy)" if original else "no built-in op has this name"
                problems.append(LoadProblem(record.source, f"{record.op} claims the built-in handler but {why}; it can be browsed, not run", tool=record.tool_name, severity="warning"))
        records.append(record)
    return Registry(records, problems, group_summaries=registry.group_summaries)
