"""Exporting ops as provider tool definitions.

Names load their module on first use: the CLI reads ``PROVIDERS`` to build
its parser, and must not load the exporters (and the registry) to do so.
"""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes

_LAZY = {
    "PROVIDERS": "._names",
    "StrictSchema": "._strict",
    "export_tool": "._providers",
    "mcp_annotations": "._providers",
    "provider_tool": "._providers",
    "provider_tool_name": "._providers",
    "to_gemini_schema": "._gemini_schema",
    "to_strict_schema": "._strict",
}

if _typing.TYPE_CHECKING:
    from ._gemini_schema import to_gemini_schema
    from ._names import PROVIDERS
    from ._providers import export_tool, mcp_annotations, provider_tool, provider_tool_name
    from ._strict import StrictSchema, to_strict_schema

__all__ = [
    "PROVIDERS",
    "StrictSchema",
    "export_tool",
    "mcp_annotations",
    "provider_tool",
    "provider_tool_name",
    "to_gemini_schema",
    "to_strict_schema",
]

__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)
