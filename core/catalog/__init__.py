"""Catalogue sources: reading tool definitions from every supported shape."""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._tool import Binding, LoadProblem, ToolDefinition, ToolMetadata

if _typing.TYPE_CHECKING:
    from ._folders import guide_summary, load_tool_folders
    from ._sources import CatalogLoad, default_namespace, load_catalog, split_catalog_spec

# The readers load the OpenAPI importer, which names tools through the registry,
# which needs ._tool from here: loading them on first use keeps that cycle from
# depending on which package was imported first, and spares ._tool's users.
_LAZY = {
    "guide_summary": "._folders",
    "load_tool_folders": "._folders",
    "CatalogLoad": "._sources",
    "default_namespace": "._sources",
    "load_catalog": "._sources",
    "split_catalog_spec": "._sources",
}

__all__ = [
    "Binding",
    "CatalogLoad",
    "LoadProblem",
    "ToolDefinition",
    "ToolMetadata",
    "default_namespace",
    "guide_summary",
    "load_catalog",
    "load_tool_folders",
    "split_catalog_spec",
]

__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)
