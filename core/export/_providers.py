"""One op as each provider's tool definition."""

from __future__ import annotations

from typing import Any

from ..registry._exported import NAME_LIMIT, exported_name, exported_op_name
from ..registry._record import OpRecord
from ._gemini_schema import to_gemini_schema

PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "mcp")
__all__ = ["NAME_LIMIT", "PROVIDERS", "export_tool", "mcp_annotations", "provider_tool_name"]


def provider_tool_name(record: OpRecord, *, by_op: bool = False) -> str:
    """A provider-safe tool name: the tool's own name, or the op with dots as double underscores.

    Over 64 characters, the name ends in a stable hash instead of being cut,
    and :meth:`Registry.resolve` maps it back to the op.
    """
    return exported_op_name(record.op) if by_op else exported_name(record.tool_name)


def _description(record: OpRecord) -> str:
    return record.description or record.summary


def mcp_annotations(record: OpRecord) -> dict[str, Any]:
    """An upstream MCP tool keeps the annotations its server gave; other ops get them from their metadata."""
    if record.annotations is not None:
        return dict(record.annotations)
    return {
        "title": record.summary,
        "readOnlyHint": record.kind == "read",
        "destructiveHint": record.destructive,
        "idempotentHint": bool(record.metadata.idempotent),
        "openWorldHint": record.op.startswith("util.web") or record.binding.kind in ("mcp", "http"),
    }


def export_tool(record: OpRecord, provider: str, *, by_op: bool = False) -> dict[str, Any]:
    """The tool definition ``provider`` expects for this op."""
    name = provider_tool_name(record, by_op=by_op)
    description = _description(record)
    if provider == "openai":
        return {"type": "function", "function": {"name": name, "description": description, "parameters": record.parameters}}
    if provider == "openai-responses":
        return {"type": "function", "name": name, "description": description, "parameters": record.parameters}
    if provider == "anthropic":
        return {"name": name, "description": description, "input_schema": record.parameters}
    if provider == "gemini":
        return {"name": name, "description": description, "parameters": to_gemini_schema(record.parameters)}
    if provider == "mcp":
        tool = {"name": name, "description": description, "inputSchema": record.parameters, "annotations": mcp_annotations(record)}
        if record.title:
            tool["title"] = record.title
        return tool
    raise ValueError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")
