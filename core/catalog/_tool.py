"""The normalised shape every catalogue source is read into."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SIDE_EFFECTS = ("none", "read_only", "writes")
CATEGORIES = ("retrieval", "action", "utility")


@dataclass(frozen=True)
class ToolMetadata:
    """Orchestration metadata of one tool (the tool-folder `schema.json` fields).

    ``None`` means the source did not say; the registry then infers a value
    from the name, annotations or HTTP method.
    """

    category: str | None = None
    side_effects: str | None = None
    idempotent: bool | None = None
    requires_confirmation: bool = False
    destructive: bool | None = None
    allowed_modes: tuple[str, ...] = ("text", "voice")
    latency_budget_ms: int | None = None
    contexts: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    auth_required: bool = False

    def to_dict(self) -> dict[str, Any]:
        return {
            "category": self.category,
            "side_effects": self.side_effects,
            "idempotent": self.idempotent,
            "requires_confirmation": self.requires_confirmation,
            "destructive": self.destructive,
            "allowed_modes": list(self.allowed_modes),
            "latency_budget_ms": self.latency_budget_ms,
            "contexts": list(self.contexts),
            "tags": list(self.tags),
            "auth_required": self.auth_required,
        }


@dataclass(frozen=True)
class ToolDefinition:
    """One tool as a catalogue source describes it, before it becomes an op.

    ``namespace`` is where ops of an unknown naming shape are placed
    (``mcp.github``, ``loom``). ``op`` is an exact op the source assigns (an
    ``x-opgate.op`` override, or the op of a built registry); ``op_hint`` is a
    dotted path that only guides naming (an OpenAPI ``product.OperationId``).
    """

    name: str
    description: str
    parameters: dict[str, Any] | None
    namespace: str = ""
    source: str = ""
    op: str | None = None
    op_hint: str | None = None
    summary: str | None = None
    metadata: ToolMetadata = field(default_factory=ToolMetadata)
    notes: tuple[str, ...] = ()
    examples: tuple[dict[str, Any], ...] = ()
    policy: dict[str, list[str]] | None = None
    result_schema: dict[str, Any] | None = None
    http: str | None = None
    handler_path: str | None = None


@dataclass(frozen=True)
class LoadProblem:
    """Something wrong with a catalogue: where it is and what to fix.

    ``severity`` is ``error`` when the tool was left out, ``warning`` when it
    loaded with a caveat (for example a schema computed at run time).
    """

    source: str
    message: str
    tool: str | None = None
    field: str | None = None
    severity: str = "error"

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if v is not None}

    def __str__(self) -> str:
        where = self.source
        if self.tool:
            where += f" [{self.tool}]"
        if self.field:
            where += f" {self.field}"
        return f"{self.severity}: {where}: {self.message}"
