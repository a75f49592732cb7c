"""Reading a built ``registry.json`` back as tool definitions, keeping each op exactly."""

from __future__ import annotations

from typing import Any

from ._tool import LoadProblem, ToolDefinition, ToolMetadata


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
    )


def parse_registry_file(data: dict[str, Any], *, source: str) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    for index, record in enumerate(data["ops"]):
        if not isinstance(record, dict) or not isinstance(record.get("op"), str) or not isinstance(record.get("tool_name"), str):
            problems.append(LoadProblem(source, "record needs 'op' and 'tool_name'", field=f"ops[{index}]"))
            continue
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
            )
        )
    return tools, problems
