"""One op of the registry: a tool with its stable semantic name."""

from __future__ import annotations

from typing import Any

from .._record import field, record
from ..catalog._tool import NOT_RUNNABLE_FROM_FILE, Binding, ToolMetadata


@record(frozen=True)
class OpRecord:
    """A registry record: what ``help`` shows and what ``exec`` dispatches on.

    ``op`` is the dotted semantic name (``onto.task.list``), ``tool_name`` the
    name the catalogue gave the tool (``list_onto_tasks``). ``kind`` is
    ``read`` or ``write``; ``badges`` adds ``destructive`` and
    ``confirmation`` where they apply, and ``browse-only`` when nothing can
    run it here. ``binding`` says which executor runs it.
    """

    op: str
    tool_name: str
    description: str
    summary: str
    parameters: dict[str, Any]
    group: str
    kind: str
    entity: str | None
    action: str | None
    metadata: ToolMetadata
    namespace: str = ""
    source: str = ""
    examples: tuple[dict[str, Any], ...] = ()
    notes: tuple[str, ...] = ()
    policy: dict[str, list[str]] | None = None
    result_schema: dict[str, Any] | None = None
    http: str | None = None
    # For an HTTP op: where each argument goes (path, query, header, body, form, file); validation never reads it.
    arguments_in: dict[str, str] | None = None
    handler_path: str | None = None
    warnings: tuple[str, ...] = field(default=())
    binding: Binding = NOT_RUNNABLE_FROM_FILE
    annotations: dict[str, Any] | None = None
    title: str | None = None

    @property
    def runnable(self) -> bool:
        """Whether an executor can run this op here (otherwise only its help and schema work)."""
        return self.binding.runnable

    @property
    def mutates(self) -> bool:
        return self.kind == "write"

    @property
    def destructive(self) -> bool:
        return bool(self.metadata.destructive)

    @property
    def requires_confirmation(self) -> bool:
        return self.metadata.requires_confirmation

    @property
    def badges(self) -> tuple[str, ...]:
        badges = [self.kind]
        if self.destructive:
            badges.append("destructive")
        if self.requires_confirmation:
            badges.append("confirmation")
        if not self.runnable:
            badges.append("browse-only")
        return tuple(badges)

    @property
    def required_args(self) -> tuple[str, ...]:
        required = self.parameters.get("required", [])
        return tuple(r for r in required if isinstance(r, str))

    def to_dict(self) -> dict[str, Any]:
        """The record as written to ``registry.json`` (and hashed into the version)."""
        return {
            "op": self.op,
            "tool_name": self.tool_name,
            "description": self.description,
            "summary": self.summary,
            "parameters_schema": self.parameters,
            "group": self.group,
            "kind": self.kind,
            "entity": self.entity,
            "action": self.action,
            "metadata": self.metadata.to_dict(),
            "namespace": self.namespace,
            "examples": list(self.examples),
            "notes": list(self.notes),
            "policy": self.policy,
            "result_schema": self.result_schema,
            "http": self.http,
            "runs_on": self.binding.to_dict(),
            "handler_path": self.handler_path,
            "annotations": self.annotations,
            "title": self.title,
        } | ({"arguments_in": self.arguments_in} if self.arguments_in is not None else {})  # other ops keep their version hash
