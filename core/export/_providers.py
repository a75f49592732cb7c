"""One op as each provider's tool definition."""

from __future__ import annotations

from typing import Any

from ..registry._exported import NAME_LIMIT, exported_name, exported_op_name
from ..registry._record import OpRecord
from ._gemini_schema import to_gemini_schema
from ._names import PROVIDERS

__all__ = ["NAME_LIMIT", "PROVIDERS", "export_tool", "mcp_annotations", "provider_tool", "provider_tool_name"]


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


def provider_tool(
    provider: str,
    name: str,
    description: str,
    parameters: dict[str, Any],
    *,
    annotations: dict[str, Any] | None = None,
    defer_loading: bool = False,
    strict: bool = False,
) -> dict[str, Any]:
    """One tool in ``provider``'s own shape (for Gemini: one function declaration).

    ``strict`` marks an OpenAI tool strict; ``parameters`` must then already
    be strict-compatible (:func:`to_strict_schema`). Gemini gets the JSON
    Schema unchanged in ``parameters_json_schema``; ``gemini-openapi`` gets
    the OpenAPI-subset ``parameters`` that google-genai's ``Schema`` holds.
    """
    deferred = {"defer_loading": True} if defer_loading else {}
    if provider == "openai":
        function = {"name": name, "description": description, "parameters": parameters, **({"strict": True} if strict else {})}
        return {"type": "function", "function": function}
    if provider == "openai-responses":
        # The SDK's FunctionToolParam requires strict; False says plainly that the schema is not strict-checked.
        return {"type": "function", "name": name, "description": description, "parameters": parameters, "strict": strict, **deferred}
    if provider == "anthropic":
        return {"name": name, "description": description, "input_schema": parameters, **deferred}
    if provider == "gemini":
        return {"name": name, "description": description, "parameters_json_schema": parameters}
    if provider == "gemini-openapi":
        return {"name": name, "description": description, "parameters": to_gemini_schema(parameters)}
    if provider == "mcp":
        return {"name": name, "description": description, "inputSchema": parameters, "annotations": dict(annotations or {})}
    raise ValueError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")


def export_tool(record: OpRecord, provider: str, *, by_op: bool = False) -> dict[str, Any]:
    """The tool definition ``provider`` expects for this op."""
    tool = provider_tool(provider, provider_tool_name(record, by_op=by_op), _description(record), record.parameters, annotations=mcp_annotations(record))
    if provider == "mcp" and record.title:
        tool["title"] = record.title
    return tool
