"""The explorer's binding ids, as data: what ``[explorer.keymap]`` in opgate.toml may remap.

The bindings themselves are Textual objects (``opgate.tui._keys``), which the
core never imports; ``opgate config check`` reads these ids instead, and
tests/unit/test_explorer_binding_ids.py keeps the two lists the same.
"""

from __future__ import annotations

from collections.abc import Iterable

EXPLORER_BINDING_IDS = frozenset({
    "opgate.back",
    "opgate.build",
    "opgate.collections",
    "opgate.context",
    "opgate.copy",
    "opgate.docs",
    "opgate.dry_run",
    "opgate.example",
    "opgate.export",
    "opgate.find",
    "opgate.find_slash",
    "opgate.help",
    "opgate.history",
    "opgate.history.back",
    "opgate.history.batch",
    "opgate.history.clear",
    "opgate.history.dry_batch",
    "opgate.history.filter",
    "opgate.history.open",
    "opgate.history.refresh",
    "opgate.history.run_batch",
    "opgate.history.save",
    "opgate.maximize",
    "opgate.pick",
    "opgate.quit",
    "opgate.result",
    "opgate.run",
    "opgate.save",
    "opgate.schema",
    "opgate.tree",
    "opgate.writes",
})


def unknown_bindings(binding_ids: Iterable[str]) -> list[str]:
    """The ids among ``binding_ids`` that name no binding of the explorer, sorted."""
    return sorted(set(binding_ids) - EXPLORER_BINDING_IDS)
