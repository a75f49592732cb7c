"""What a model sees in each mode, in each provider's format, and what it costs.

Modes: ``gateway`` (help, exec, batch, search), ``full`` (every op as a typed
tool), ``hybrid`` (a typed lane for this turn plus list_tools/run_tool) and
``deferred`` (every op typed but marked for deferred loading, with the
provider's own tool search: Anthropic's BM25 tool search tool, OpenAI's
``tool_search`` over namespaces of related ops).

Gemini tools come as google-genai expects them, ``[{"function_declarations":
[...]}]``. ``strict`` (OpenAI only) sends each schema in strict form where it
has one, and says which tools keep their plain schema and why.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..export._providers import PROVIDERS, provider_tool
from ..export._strict import to_strict_schema
from ._gateway_tools import gateway_tools
from ._hybrid import hybrid_tools
from ._names import MODES
from ._namespaces import plan_namespaces
from ._spec import ToolSpec, typed_tool

STRICT_PROVIDERS = ("openai", "openai-responses")
ANTHROPIC_TOOL_SEARCH = {"type": "tool_search_tool_bm25_20251119", "name": "tool_search_tool_bm25"}
OPENAI_TOOL_SEARCH = {"type": "tool_search"}
# Tokens are estimated at four bytes each, the usual rule of thumb for JSON and English.
BYTES_PER_TOKEN = 4


@dataclass
class Export:
    """A tools array and, for a strict export, the tools left non-strict with the reasons."""

    tools: list[dict[str, Any]]
    not_strict: dict[str, list[str]] = field(default_factory=dict)
    strict_tools: int = 0


def mode_tools(gateway: Any, mode: str, *, router: Any = None, turn: str | None = None) -> list[ToolSpec]:
    if mode == "gateway":
        return gateway_tools(gateway)
    # A model is only offered what it can call: browse-only and quarantined ops stay out.
    visible = [r for r in gateway.registry if gateway.is_visible(r.op) and r.runnable]
    if mode == "full":
        return [typed_tool(r) for r in visible]
    if mode == "deferred":
        return [typed_tool(r, defer_loading=True) for r in visible]
    if mode == "hybrid":
        return hybrid_tools(gateway, router, turn)
    raise ValueError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")


def _check(provider: str, mode: str, strict: bool) -> None:
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")
    if mode not in MODES:
        raise ValueError(f"unknown mode {mode!r}; known: {', '.join(MODES)}")
    if strict and provider not in STRICT_PROVIDERS:
        raise ValueError(f"strict mode is OpenAI's: use --provider {' or '.join(STRICT_PROVIDERS)}")
    if mode == "deferred" and provider not in ("anthropic", "openai-responses"):
        raise ValueError("deferred mode is the providers' own deferred loading: use --provider anthropic or openai-responses")


def format_tools(specs: list[ToolSpec], provider: str, mode: str, *, strict: bool = False, group_summaries: dict[str, str] | None = None) -> Export:
    """``specs`` as the tools array ``provider`` takes in ``mode`` (the layout differs only for gemini and deferred)."""
    _check(provider, mode, strict)
    not_strict: dict[str, list[str]] = {}
    strict_names: set[str] = set()

    def one(spec: ToolSpec) -> dict[str, Any]:
        parameters, is_strict = spec.parameters, False
        if strict:
            converted = to_strict_schema(spec.parameters)
            if converted.schema is None:
                not_strict[spec.name] = converted.problems
            else:
                parameters, is_strict = converted.schema, True
                strict_names.add(spec.name)
        return provider_tool(provider, spec.name, spec.description, parameters, annotations=spec.annotations, defer_loading=spec.defer_loading, strict=is_strict)

    if provider in ("gemini", "gemini-openapi"):
        return Export([{"function_declarations": [one(s) for s in specs]}])
    if mode == "deferred" and provider == "anthropic":
        return Export([ANTHROPIC_TOOL_SEARCH, *(one(s) for s in specs)])
    if mode == "deferred":
        namespaces = [
            {"type": "namespace", "name": name, "description": description, "tools": [one(s) for s in members]}
            for name, description, members in plan_namespaces(specs, group_summaries)
        ]
        return Export([OPENAI_TOOL_SEARCH, *namespaces], not_strict, len(strict_names))
    tools = [one(s) for s in specs]
    return Export(tools, not_strict, len(strict_names))


def build_export(gateway: Any, provider: str, mode: str, *, router: Any = None, turn: str | None = None, strict: bool = False) -> Export:
    """The tools array to send to ``provider`` in ``mode``, with what strict mode could not cover."""
    _check(provider, mode, strict)
    specs = mode_tools(gateway, mode, router=router, turn=turn)
    return format_tools(specs, provider, mode, strict=strict, group_summaries=gateway.registry.group_summaries)


def export(gateway: Any, provider: str, mode: str, *, router: Any = None, turn: str | None = None, strict: bool = False) -> list[dict[str, Any]]:
    """The tools array to send to ``provider`` in ``mode``."""
    return build_export(gateway, provider, mode, router=router, turn=turn, strict=strict).tools


def _upfront(tool: dict[str, Any]) -> Any:
    """What of one entry a model sees before any tool search, as each provider documents it.

    Anthropic leaves a deferred tool out of the prompt entirely. OpenAI shows a
    deferred function's name and description (only its parameters wait), and a
    namespace's name and description (its functions wait for the search).
    """
    if tool.get("type") == "namespace":
        return {"name": tool["name"], "description": tool["description"]}
    if not tool.get("defer_loading"):
        return tool
    if tool.get("type") == "function":  # OpenAI Responses
        return {"name": tool["name"], "description": tool.get("description")}
    return None


def _size(value: Any) -> int:
    return len(json.dumps(value, separators=(",", ":"), ensure_ascii=False).encode())


def _count(tool: dict[str, Any]) -> int:
    if "function_declarations" in tool:
        return len(tool["function_declarations"])
    return len(tool.get("tools", [])) or 1


def stats(tools: list[dict[str, Any]]) -> dict[str, int]:
    """Tool count, compact JSON bytes, estimated tokens, and the bytes a model sees up front.

    ``upfront_bytes`` counts only what the provider puts before the model
    ahead of any tool search (see :func:`_upfront`); ``namespaces`` is how
    many OpenAI namespaces the array holds.
    """
    size = _size(tools)
    upfront = _size([u for u in map(_upfront, tools) if u is not None])
    return {
        "tools": sum(_count(t) for t in tools),
        "bytes": size,
        "estimated_tokens": -(-size // BYTES_PER_TOKEN),
        "upfront_bytes": upfront,
        "namespaces": sum(1 for t in tools if t.get("type") == "namespace"),
    }
