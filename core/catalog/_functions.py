"""OpenAI-style function definitions, wrapped or bare.

Wrapped: ``{"type": "function", "function": {name, description, parameters}}``.
Bare: ``{name, description, parameters}``; OpenAPI-flattened operations add
``op`` (``product.OperationId``) and ``http`` (``"GET /v1/..."``).
"""

from __future__ import annotations

from typing import Any

from ._extension import extension_fields
from ._tool import LoadProblem, ToolDefinition, ToolMetadata

_READ_METHODS = {"GET", "HEAD", "OPTIONS"}


def _http_metadata(http: str | None) -> ToolMetadata:
    if not http:
        return ToolMetadata()
    method = http.split()[0].upper()
    reads = method in _READ_METHODS
    return ToolMetadata(
        category="retrieval" if reads else "action",
        side_effects="read_only" if reads else "writes",
        idempotent=method in _READ_METHODS | {"PUT", "DELETE"},
        destructive=method == "DELETE",
    )


def parse_function(item: Any, *, source: str, namespace: str, index: int) -> ToolDefinition | LoadProblem:
    """One definition, or the problem that kept it out."""
    if not isinstance(item, dict):
        return LoadProblem(source, f"entry {index} is not an object", field=f"[{index}]")
    fn = item.get("function") if item.get("type") == "function" else item
    if not isinstance(fn, dict):
        return LoadProblem(source, f"entry {index} has no 'function' object", field=f"[{index}].function")
    name = fn.get("name")
    if not isinstance(name, str) or not name.strip():
        return LoadProblem(source, "the tool has no name", field=f"[{index}].name")
    description = fn.get("description") or ""
    if not isinstance(description, str):
        return LoadProblem(source, "description must be a string", tool=name, field="description")
    parameters = fn.get("parameters", item.get("parameters"))
    fields: dict[str, Any] = {}
    ext = item.get("x-opgate")
    if isinstance(ext, dict):
        fields = extension_fields(ext)
    http = item.get("http") if isinstance(item.get("http"), str) else None
    if "metadata" not in fields:
        fields["metadata"] = _http_metadata(http)
    if isinstance(item.get("op"), str):
        fields["op_hint"] = item["op"]
    return ToolDefinition(
        name=name.strip(),
        description=description.strip(),
        parameters=parameters,
        namespace=namespace,
        source=source,
        http=http,
        **fields,
    )


def parse_function_list(items: list[Any], *, source: str, namespace: str) -> tuple[list[ToolDefinition], list[LoadProblem]]:
    tools: list[ToolDefinition] = []
    problems: list[LoadProblem] = []
    for index, item in enumerate(items):
        parsed = parse_function(item, source=source, namespace=namespace, index=index)
        (problems if isinstance(parsed, LoadProblem) else tools).append(parsed)
    return tools, problems
