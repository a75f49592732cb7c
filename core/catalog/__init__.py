"""Catalogue sources: reading tool definitions from every supported shape."""

from ._folders import guide_summary, load_tool_folders
from ._sources import CatalogLoad, default_namespace, load_catalog, split_catalog_spec
from ._tool import Binding, LoadProblem, ToolDefinition, ToolMetadata

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
