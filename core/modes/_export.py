"""What a model sees in each mode, in each provider's format, and what it costs.

Modes: ``gateway`` (help, exec, batch, search), ``full`` (every op as a typed
tool), ``hybrid`` (a typed lane for this turn plus list_tools/run_tool) and
``deferred`` (every op typed but marked for deferred loading, with the
provider's own tool search: Anthropic's BM25 tool search tool, OpenAI's
``tool_search`` with one namespace per op group).
"""

from __future__ import annotations

import json
from collections import defaultdict
from typing import Any

from ._gateway_tools import gateway_tools
from ._hybrid import hybrid_tools
from ._spec import ToolSpec, typed_tool

MODES = ("gateway", "full", "hybrid", "deferred")
PROVIDERS = ("openai", "openai-responses", "anthropic", "gemini", "mcp")
ANTHROPIC_TOOL_SEARCH = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
OPENAI_TOOL_SEARCH = {"type": "tool_search"}
# Tokens are estimated at four bytes each, the usual rule of thumb for JSON and English.
BYTES_PER_TOKEN = 4


def mode_tools(gateway: Any, mode: str, *, router: Any = None, turn: str | None = None) -> list[ToolSpec]:
    if mode == "gateway":
        return gateway_tools(gateway)
    visible = [r for r in gateway.registry if gateway.is_visible(r.op) and not r.binding.quarantined]
    if mode == "full":
        return [typed_tool(r) for r in visible]
    if mode == "deferred":
        return [typed_tool(r, defer_loading=True) for r in visible]
    if mode == "hybrid":
        return hybrid_tools(gateway, router, turn)
    raise ValueError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")


def _gemini(spec: ToolSpec) -> dict[str, Any]:
    from ..export._gemini_schema import to_gemini_schema

    return {"name": spec.name, "description": spec.description, "parameters": to_gemini_schema(spec.parameters)}


def _one(spec: ToolSpec, provider: str) -> dict[str, Any]:
    if provider == "openai":
        return {"type": "function", "function": {"name": spec.name, "description": spec.description, "parameters": spec.parameters}}
    if provider == "openai-responses":
        tool = {"type": "function", "name": spec.name, "description": spec.description, "parameters": spec.parameters}
        return {**tool, "defer_loading": True} if spec.defer_loading else tool
    if provider == "anthropic":
        tool = {"name": spec.name, "description": spec.description, "input_schema": spec.parameters}
        return {**tool, "defer_loading": True} if spec.defer_loading else tool
    if provider == "gemini":
        return _gemini(spec)
    if provider == "mcp":
        return {"name": spec.name, "description": spec.description, "inputSchema": spec.parameters, "annotations": spec.annotations}
    raise ValueError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")


def _openai_namespaces(specs: list[ToolSpec], gateway: Any) -> list[dict[str, Any]]:
    groups: dict[str, list[ToolSpec]] = defaultdict(list)
    for spec in specs:
        groups[spec.op.rsplit(".", 1)[0] if spec.op and "." in spec.op else "ops"].append(spec)
    namespaces = []
    for group, members in sorted(groups.items()):
        actions = ", ".join(m.op.rsplit(".", 1)[-1] for m in members if m.op)
        summary = gateway.registry.group_summaries.get(group) or f"{group}: {actions}"
        namespaces.append({"type": "namespace", "name": group.replace(".", "_"), "description": summary, "tools": [_one(m, "openai-responses") for m in members]})
    return namespaces


def export(gateway: Any, provider: str, mode: str, *, router: Any = None, turn: str | None = None) -> list[dict[str, Any]]:
    """The tools array to send to ``provider`` in ``mode``."""
    specs = mode_tools(gateway, mode, router=router, turn=turn)
    if mode == "deferred":
        if provider == "anthropic":
            return [ANTHROPIC_TOOL_SEARCH, *(_one(s, provider) for s in specs)]
        if provider == "openai-responses":
            return [OPENAI_TOOL_SEARCH, *_openai_namespaces(specs, gateway)]
        raise ValueError("deferred mode is the providers' own deferred loading: use --provider anthropic or openai-responses")
    return [_one(s, provider) for s in specs]


def _upfront(tool: dict[str, Any]) -> Any:
    """What of one entry the model sees before any search: deferred schemas stay out."""
    if tool.get("defer_loading"):
        return None
    if tool.get("type") == "namespace":
        inner = [{"name": t["name"], "description": t["description"]} for t in tool["tools"]]
        return {"name": tool["name"], "description": tool["description"], "tools": inner}
    return tool


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def stats(tools: list[dict[str, Any]]) -> dict[str, int]:
    """Tool count, compact JSON bytes, estimated tokens, and the bytes a model sees up front.

    ``upfront_bytes`` leaves out what a provider loads only on demand
    (deferred tools, and the schemas inside OpenAI namespaces).
    """
    size = _size(tools)
    upfront = _size([u for u in map(_upfront, tools) if u is not None])
    count = sum(len(t.get("tools", [])) or 1 for t in tools)
    return {"tools": count, "bytes": size, "estimated_tokens": -(-size // BYTES_PER_TOKEN), "upfront_bytes": upfront}
