"""The one front door: every front end (CLI, REPL, explorer, MCP server) calls a Gateway."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ._builtin import builtin_catalog_loads, builtin_contexts
from ._scopes import ContextTable
from .catalog._sources import CatalogLoad, load_catalog
from .help._service import HelpService
from .registry._build import build_registry
from .registry._registry import Registry


class Gateway:
    """help over a registry of ops, seen through one context scope.

    ``Gateway()`` serves the built-in catalogue; :meth:`from_catalogs` builds
    one from catalogue files. ``context`` names a context of the context table
    (``None``: every op is visible).
    """

    def __init__(self, registry: Registry | None = None, *, context: str | None = None, contexts: ContextTable | None = None):
        self.registry = registry if registry is not None else build_registry(builtin_catalog_loads())
        self.contexts = contexts if contexts is not None else builtin_contexts()
        self._context: str | None = None
        self._help: HelpService
        self.set_context(context)

    @classmethod
    def from_catalogs(cls, paths: Iterable[str | Path], *, include_builtin: bool = False, **options: Any) -> Gateway:
        """A gateway over catalogue files or folders (``NAME=PATH`` sets a namespace)."""
        loads: list[CatalogLoad] = builtin_catalog_loads() if include_builtin else []
        for path in paths:
            loads.extend(load_catalog(path))
        return cls(build_registry(loads), **options)

    @property
    def context(self) -> str | None:
        return self._context

    def set_context(self, context: str | None) -> None:
        """Switch the context scope; which ops exist changes with it."""
        self._help = HelpService(self.registry, self.contexts.visibility(context))
        self._context = context

    def is_visible(self, op: str) -> bool:
        return self._help.tree.node(op) is not None and self._help.tree.node(op).record is not None  # type: ignore[union-attr]

    @property
    def help_tree(self):
        """The namespace tree of the visible ops (for browsers such as the explorer)."""
        return self._help.tree

    def help(self, path: str | None = "", format: str = "short", include_examples: bool = True, include_schemas: bool = False) -> dict[str, Any]:
        """Help for a path: the root, a group, ``<group>.read`` / ``.write``, or an op. Never raises."""
        return self._help.help(path, format=format, include_examples=include_examples, include_schemas=include_schemas)
