"""opgate.core: the registry, help and (later) exec behind every front end.

Nothing here imports a user interface library; ``tests/unit/test_import_hygiene.py``
proves it.
"""

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
