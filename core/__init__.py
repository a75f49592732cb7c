"""opgate.core: the registry, help and (later) exec behind every front end.

Nothing here imports a user interface library; ``tests/unit/test_import_hygiene.py``
proves it.

The names below load their module on first use: importing a submodule such
as ``opgate.core.config`` runs this file first, and must not pay for the
Gateway and everything behind it (``tests/unit/test_import_cost.py``).
"""

import typing as _typing

from ._lazy import lazy_attributes as _lazy_attributes

_LAZY = {
    "Gateway": "._gateway",
    "IdChoice": "._id_choices",
    "ALL_CONTEXTS": "._scopes",
    "ContextTable": "._scopes",
    "Binding": ".catalog",
    "CatalogLoad": ".catalog",
    "LoadProblem": ".catalog",
    "ToolDefinition": ".catalog",
    "ToolMetadata": ".catalog",
    "load_catalog": ".catalog",
    "HelpService": ".help",
    "HelpTree": ".help",
    "OpRecord": ".registry",
    "Registry": ".registry",
    "build_registry": ".registry",
}

if _typing.TYPE_CHECKING:
    from ._gateway import Gateway
    from ._id_choices import IdChoice
    from ._scopes import ALL_CONTEXTS, ContextTable
    from .catalog import Binding, CatalogLoad, LoadProblem, ToolDefinition, ToolMetadata, load_catalog
    from .help import HelpService, HelpTree
    from .registry import OpRecord, Registry, build_registry

__all__ = [
    "ALL_CONTEXTS",
    "Binding",
    "CatalogLoad",
    "ContextTable",
    "Gateway",
    "HelpService",
    "HelpTree",
    "IdChoice",
    "LoadProblem",
    "OpRecord",
    "Registry",
    "ToolDefinition",
    "ToolMetadata",
    "build_registry",
    "load_catalog",
]

__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
