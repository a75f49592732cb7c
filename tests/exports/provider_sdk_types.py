"""Checking exported tools with the providers' own SDK types, offline.

openai and anthropic describe request tools as TypedDicts: pydantic's
TypeAdapter validates them, and a key the type does not know is dropped
silently, so the validated value is compared with the original to catch it.
google-genai's ``types.Tool`` and mcp's ``Tool`` are pydantic models; the
former forbids unknown keys itself.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from pydantic import TypeAdapter, ValidationError


@cache
def _adapter(kind: str) -> TypeAdapter:
    if kind == "chat-function":
        from openai.types.chat import ChatCompletionFunctionToolParam

        return TypeAdapter(ChatCompletionFunctionToolParam)
    if kind == "responses-function":
        from openai.types.responses import FunctionToolParam

        return TypeAdapter(FunctionToolParam)
    if kind == "responses-namespace":
        from openai.types.responses import NamespaceToolParam

        return TypeAdapter(NamespaceToolParam)
    if kind == "responses-namespace-function":
        from openai.types.responses.namespace_tool_param import ToolFunction

        return TypeAdapter(ToolFunction)
    if kind == "responses-tool-search":
        from openai.types.responses import ToolSearchToolParam

        return TypeAdapter(ToolSearchToolParam)
    if kind == "anthropic-tool":
        from anthropic.types import ToolParam

        return TypeAdapter(ToolParam)
    if kind == "anthropic-input-schema":
        from anthropic.types.tool_param import InputSchemaTyped

        return TypeAdapter(InputSchemaTyped)
    if kind == "anthropic-bm25":
        from anthropic.types import ToolSearchToolBm25_20251119Param

        return TypeAdapter(ToolSearchToolBm25_20251119Param)
    raise KeyError(kind)


def _typed_dict(kind: str, value: Any, where: str, *, lazy: tuple[str, ...] = ()) -> list[str]:
    try:
        parsed = _adapter(kind).validate_python(value, strict=True)
    except ValidationError as exc:
        return [f"{where}: {kind}: {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    if lazy and isinstance(parsed, dict):  # Iterable fields come back as lazy validators: compare the rest
        parsed = {k: v for k, v in parsed.items() if k not in lazy}
        value = {k: v for k, v in value.items() if k not in lazy}
    if parsed != value:
        unknown = sorted(set(value) - set(parsed)) if isinstance(value, dict) and isinstance(parsed, dict) else []
        return [f"{where}: {kind}: keys the SDK type does not know: {unknown}" if unknown else f"{where}: {kind}: the SDK type changed the value"]
    return []


def _name(tool: dict[str, Any]) -> str:
    return str(tool.get("name") or tool.get("function", {}).get("name") or tool.get("type"))


def _openai(tool: dict[str, Any]) -> list[str]:
    return _typed_dict("chat-function", tool, _name(tool))


def _openai_responses(tool: dict[str, Any]) -> list[str]:
    where = _name(tool)
    if tool.get("type") == "function":
        return _typed_dict("responses-function", tool, where)
    if tool.get("type") == "tool_search":
        return _typed_dict("responses-tool-search", tool, where)
    if tool.get("type") == "namespace":
        # `tools` is an Iterable in the SDK type, which pydantic checks lazily: check each function here.
        problems = _typed_dict("responses-namespace", {**tool, "tools": []}, where, lazy=("tools",))
        for inner in tool.get("tools", []):
            problems += _typed_dict("responses-namespace-function", inner, f"{where}/{_name(inner)}")
        return problems
    return [f"{where}: no Responses tool type {tool.get('type')!r}"]


def _anthropic(tool: dict[str, Any]) -> list[str]:
    where = _name(tool)
    if str(tool.get("type", "")).startswith("tool_search_tool_bm25"):
        return _typed_dict("anthropic-bm25", tool, where)
    problems = _typed_dict("anthropic-tool", tool, where)
    schema = tool.get("input_schema")
    try:
        _adapter("anthropic-input-schema").validate_python(schema, strict=True)
    except ValidationError as exc:
        problems += [f"{where}: input_schema: {e['msg']}" for e in exc.errors()]
    return problems


def _gemini(tool: dict[str, Any]) -> list[str]:
    from google.genai import types

    try:
        types.Tool.model_validate(tool)
    except ValidationError as exc:
        return [f"gemini tool: {'.'.join(map(str, e['loc']))}: {e['msg']}" for e in exc.errors()]
    return []


def _mcp(tool: dict[str, Any]) -> list[str]:
    from mcp.types import Tool

    try:
        Tool.model_validate(tool)
    except ValidationError as exc:
        return [f"{_name(tool)}: mcp Tool: {e['msg']}" for e in exc.errors()]
    return []


_CHECKS = {
    "openai": _openai,
    "openai-responses": _openai_responses,
    "anthropic": _anthropic,
    "gemini": _gemini,
    "gemini-openapi": _gemini,
    "mcp": _mcp,
}


def sdk_violations(provider: str, tools: list[dict[str, Any]]) -> list[str]:
    """Every way ``tools`` fails ``provider``'s SDK types (empty when the SDK takes them all)."""
    problems: list[str] = []
    for tool in tools:
        problems += _CHECKS[provider](tool)
    if provider.startswith("gemini") and not problems:
        from google.genai import types

        try:  # the array as a whole, where a caller puts it
            types.GenerateContentConfig.model_validate({"tools": tools})
        except ValidationError as exc:
            problems += [f"GenerateContentConfig.tools: {e['msg']}" for e in exc.errors()]
    return problems
