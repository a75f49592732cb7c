"""An MCP ``tools/list`` result: ``{"tools": [{name, description, inputSchema, annotations}]}``."""

from __future__ import annotations

from typing import Any

from ._tool import LoadProblem, ToolDefinition, ToolMetadata


def metadata_from_annotations(annotations: dict[str, Any]) -> ToolMetadata:
    """Map MCP tool annotations onto side effects.

    MCP's defaults are pessimistic (a tool without ``readOnlyHint`` may write,
    and a writing tool without ``destructiveHint`` may destroy), so an absent
    hint is read that way too.
    """
    read_only = annotations.get("readOnlyHint") is True
    destructive = False if read_only else annotations.get("destructiveHint", True) is not False
    return ToolMetadata(
        category="retrieval" if read_only else "action",
        side_effects="read_only" if read_only else "writes",
        idempotent=True if read_only else annotations.get("idempotentHint") is True,
        destructive=destructive,
    )


def parse_mcp_tools(items: list[Any], *, source: str, namespace: str) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            problems.append(LoadProblem(source, f"tool {index} has no name", field=f"tools[{index}].name"))
            continue
        annotations = item.get("annotations") if isinstance(item.get("annotations"), dict) else {}
        title = annotations.get("title") or item.get("title")
        tools.append(
            ToolDefinition(
                name=item["name"],
                description=(item.get("description") or "").strip(),
                parameters=item.get("inputSchema"),
                namespace=namespace,
                source=source,
                summary=title if isinstance(title, str) else None,
                metadata=metadata_from_annotations(annotations),
                result_schema=item.get("outputSchema") if isinstance(item.get("outputSchema"), dict) else None,
            )
        )
    return tools, problems
