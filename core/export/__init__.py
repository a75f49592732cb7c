"""Exporting ops as provider tool definitions."""

from ._gemini_schema import to_gemini_schema
from ._providers import PROVIDERS, export_tool, mcp_annotations, provider_tool, provider_tool_name
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
