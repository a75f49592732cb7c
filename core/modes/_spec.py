"""A tool as it is offered to a model: name, description, input schema, hints."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..export._providers import mcp_annotations, provider_tool_name
from ..registry._record import OpRecord


@dataclass(frozen=True)
class ToolSpec:
    """One tool a model sees. ``op`` is set when the tool is an op offered as a typed tool."""

    name: str
    description: str
    parameters: dict[str, Any]
    annotations: dict[str, Any] = field(default_factory=dict)
    op: str | None = None
    defer_loading: bool = False


def typed_tool(record: OpRecord, *, defer_loading: bool = False) -> ToolSpec:
    """An op as a typed tool of its own, named after the op (``onto__task__list``)."""
    description = record.description or record.summary
    if record.requires_confirmation:
        description += " Needs a person's confirmation."
    return ToolSpec(
        name=provider_tool_name(record, by_op=True),
        description=description,
        parameters=record.parameters,
        annotations=mcp_annotations(record),
        op=record.op,
        defer_loading=defer_loading,
    )
