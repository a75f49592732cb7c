"""Reading a built ``registry.json`` back as tool definitions, keeping each op exactly."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ._tool import BUILTIN_CLAIM, EXECUTOR_KINDS, NOT_RUNNABLE_FROM_FILE, Binding, LoadProblem, ToolDefinition, ToolMetadata


def _metadata(data: dict[str, Any]) -> ToolMetadata:
    return ToolMetadata(
        category=data.get("category"),
        side_effects=data.get("side_effects"),
        idempotent=data.get("idempotent"),
        requires_confirmation=bool(data.get("requires_confirmation", False)),
        destructive=data.get("destructive"),
        allowed_modes=tuple(data.get("allowed_modes") or ("text", "voice")),
        latency_budget_ms=data.get("latency_budget_ms"),
        contexts=tuple(data.get("contexts") or ()),
        tags=tuple(data.get("tags") or ()),
        auth_required=bool(data.get("auth_required", False)),
        version=data.get("version") if isinstance(data.get("version"), str) else None,
        supports_dry_run=data.get("supports_dry_run") is True,
        search_phrases=tuple(data.get("search_phrases") or ()),
    )


def _binding(record: dict[str, Any], source: str) -> tuple[Binding, str | None]:
    """How a built record runs. Handler paths are relative to the registry file.

    ``store`` is kept as a claim: the gateway binds it to the built-in handler
    only when the record is the built-in op's own definition.
    """
    runs_on = record.get("runs_on")
    if not isinstance(runs_on, dict) or runs_on.get("kind") not in EXECUTOR_KINDS:
        return NOT_RUNNABLE_FROM_FILE, None
    kind = runs_on["kind"]
    if kind == "python":
        relative = runs_on.get("target") or record.get("handler_path")
        if not isinstance(relative, str):
            return NOT_RUNNABLE_FROM_FILE, None
        path = str((Path(source).parent / relative).resolve())
        return Binding("python", target=path), path
    if kind == "store":
        return BUILTIN_CLAIM, None
    # An upstream (mcp, http) is reached through the configuration, not through a file's say-so.
    return NOT_RUNNABLE_FROM_FILE, None


def _arguments_in(value: Any) -> dict[str, str] | None:
    """Where each argument of an HTTP op goes, when the file says so."""
    if not isinstance(value, dict):
        return None
    return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, str)}


def parse_registry_file(data: dict[str, Any], *, source: str) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    for index, record in enumerate(data["ops"]):
        if not isinstance(record, dict) or not isinstance(record.get("op"), str) or not isinstance(record.get("tool_name"), str):
            problems.append(LoadProblem(source, "record needs 'op' and 'tool_name'", field=f"ops[{index}]"))
            continue
        binding, handler_path = _binding(record, source)
        tools.append(
            ToolDefinition(
                name=record["tool_name"],
                description=record.get("description") or "",
                parameters=record.get("parameters_schema"),
                namespace=record.get("namespace") or "",
                source=source,
                op=record["op"],
                summary=record.get("summary"),
                metadata=_metadata(record.get("metadata") or {}),
                notes=tuple(record.get("notes") or ()),
                examples=tuple(record.get("examples") or ()),
                policy=record.get("policy"),
                result_schema=record.get("result_schema"),
                http=record.get("http"),
                arguments_in=_arguments_in(record.get("arguments_in")),
                handler_path=handler_path,
                binding=binding,
                annotations=record.get("annotations") if isinstance(record.get("annotations"), dict) else None,
                title=record.get("title") if isinstance(record.get("title"), str) else None,
            )
        )
    return tools, problems
