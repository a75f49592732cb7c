"""Exporting ops as provider tool definitions."""

from ._gemini_schema import to_gemini_schema
from ._providers import PROVIDERS, export_tool, mcp_annotations, provider_tool_name

__all__ = ["PROVIDERS", "export_tool", "mcp_annotations", "provider_tool_name", "to_gemini_schema"]
