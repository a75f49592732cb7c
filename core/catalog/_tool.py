"""The normalised shape every catalogue source is read into."""

from __future__ import annotations

from typing import Any

from .._record import field, record

SIDE_EFFECTS = ("none", "read_only", "writes")
CATEGORIES = ("retrieval", "action", "utility")


@record(frozen=True)
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
    version: str | None = None
    supports_dry_run: bool = False
    # Words people use for what the tool does ("mark done", "to-do"): indexed by search only.
    search_phrases: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        data = {
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
        # Written only when a source says so, so that records without them keep their shape and version.
        if self.version is not None:
            data["version"] = self.version
        if self.supports_dry_run:
            data["supports_dry_run"] = True
        if self.search_phrases:
            data["search_phrases"] = list(self.search_phrases)
        return data


EXECUTOR_KINDS = ("store", "python", "mcp", "http", "none")


@record(frozen=True)
class Binding:
    """How an op runs: which kind of executor, and what it points at.

    - ``store``: a handler of the built-in catalogue, against the workspace store;
    - ``python``: a tool folder's ``handler.py`` (``target`` is its path);
    - ``mcp``: a tool of an upstream MCP server (``upstream`` names the server,
      ``target`` is the tool's own name);
    - ``http``: an operation of an HTTP API (``upstream``, ``target``);
    - ``none``: nothing can run it here; ``reason`` says why (a ``tools/list``
      file with no server behind it). Its help and schema still work.

    The binding comes from where the tool was loaded, never from the tool's
    own text, so a catalogue cannot claim another source's executor.
    """

    kind: str = "none"
    upstream: str | None = None
    target: str | None = None
    reason: str | None = None

    @property
    def runnable(self) -> bool:
        return self.kind != "none"

    @property
    def why_not_runnable(self) -> str:
        """The reason shown wherever a browse-only op appears (help, search, the explorer, exec's error)."""
        return self.reason or "nothing behind its catalogue can run it"

    @property
    def quarantined(self) -> bool:
        """An upstream tool held back until a person approves its changed definition (never exported to a model)."""
        return self.kind == "none" and (self.reason or "").startswith("quarantined")

    def to_dict(self) -> dict[str, Any]:
        return {k: v for k, v in (("kind", self.kind), ("upstream", self.upstream), ("target", self.target), ("reason", self.reason)) if v is not None}


# A built registry may say an op runs on the built-in store; that is a claim the gateway checks
# (core/executors/_defaults.guard_builtin_ops), never a binding a file can grant itself.
BUILTIN_CLAIM = Binding("none", reason="a catalogue file says it is a built-in op, and it does not match the built-in definition")
NOT_RUNNABLE_FROM_FILE = Binding("none", reason="it was read from a catalogue file with no server or handler behind it, so it can be browsed but not run")


@record(frozen=True)
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
    # For an HTTP op: where each argument goes (path, query, header, body, form, file), by argument name.
    arguments_in: dict[str, str] | None = None
    handler_path: str | None = None
    binding: Binding = NOT_RUNNABLE_FROM_FILE
    annotations: dict[str, Any] | None = None
    title: str | None = None


@record(frozen=True)
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
