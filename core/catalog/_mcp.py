"""An MCP ``tools/list`` result: ``{"tools": [{name, description, inputSchema, annotations}]}``."""

from __future__ import annotations

from typing import Any

from ._tool import NOT_RUNNABLE_FROM_FILE, Binding, LoadProblem, ToolDefinition, ToolMetadata


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


def _summary_from_title(title: Any, description: str) -> str | None:
    """The title as the op's summary, unless it only names the tool.

    Some servers' titles say what a tool does ("List GitHub Actions workflows in a
    repository"); others are display names ("Sequential Thinking", "Echo Tool")
    that tell an agent reading a group's listing nothing. A name of one or two
    words gives way to the description's first sentence (the registry's default).
    """
    if not isinstance(title, str) or not title.strip():
        return None
    if description and len(title.split()) < 3:
        return None
    return title


def parse_mcp_tools(items: list[Any], *, source: str, namespace: str, upstream: str | None = None) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    """Tools of a ``tools/list`` answer. With ``upstream`` (a configured server) each op runs on it; a file alone is browse-only."""
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    for index, item in enumerate(items):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str):
            problems.append(LoadProblem(source, f"tool {index} has no name", field=f"tools[{index}].name"))
            continue
        annotations = item.get("annotations") if isinstance(item.get("annotations"), dict) else {}
        binding = Binding("mcp", upstream=upstream, target=item["name"]) if upstream else None
        title = annotations.get("title") or item.get("title")
        description = (item.get("description") or "").strip()
        tools.append(
            ToolDefinition(
                name=item["name"],
                description=description,
                parameters=item.get("inputSchema"),
                namespace=namespace,
                source=source,
                summary=_summary_from_title(title, description),
                metadata=metadata_from_annotations(annotations),
                result_schema=item.get("outputSchema") if isinstance(item.get("outputSchema"), dict) else None,
                # Kept exactly as the server gave them; metadata above is only opgate's reading of them.
                annotations=dict(annotations) if annotations else None,
                title=item.get("title") if isinstance(item.get("title"), str) else None,
                binding=binding if binding is not None else NOT_RUNNABLE_FROM_FILE,
            )
        )
    return tools, problems
