"""The ontology's kinds as data: fields, enums, defaults, display names.

This is docs/ontology.md in a form the store can check rows against and build
SQL from. Column names used in SQL come only from here, never from callers.
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Any

from .._record import record
from ._errors import InvalidValue

TEXT, INT, JSON, TIME = "text", "int", "json", "time"

TYPE_KEY_PATTERN = re.compile(r"^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*$")

REL_VALUES = (
    "supports", "depends_on", "blocks", "references", "relates_to",
    "mitigates", "implements", "produces", "contains",
)
DOCUMENT_ROLES = ("input", "output", "reference", "scratch")
DEFAULT_DOCUMENT_ROLE = "reference"
FOLDER_TYPE_KEY = "document.folder"


@record(frozen=True)
class Field:
    """One column of a kind, as the data model describes it."""

    name: str
    type: str = TEXT
    required: bool = False
    enum: tuple[str, ...] | None = None
    default: Any = None
    references: str | None = None  # the kind this id column points at
    bounds: tuple[int, int] | None = None


@record(frozen=True)
class KindSpec:
    """Everything the store knows about one entity kind."""

    kind: str
    table: str
    number: int  # stable small integer; part of the search index rowid
    fields: tuple[Field, ...]
    display: str  # the field holding the display name: name, title or text
    body: tuple[str, ...]  # fields whose text keyword search also looks at

    @cached_property
    def columns(self) -> tuple[str, ...]:
        """Every column a row of this kind has, in a stable order."""
        return ("id", *(f.name for f in self.fields), "created_at", "updated_at")

    @cached_property
    def field_map(self) -> dict[str, Field]:
        return {f.name: f for f in self.fields}

    @cached_property
    def in_project(self) -> bool:
        """True for kinds that belong to a project (all but projects and templates)."""
        return any(f.name == "project_id" for f in self.fields)


def _state(*values: str) -> Field:
    return Field("state_key", enum=values, default=values[0])


_PROJECT_ID = Field("project_id", required=True, references="project")
_PROPS = Field("props", JSON, default={})
_TYPE_KEY = Field("type_key")
_DESCRIPTION = Field("description")
_LEVELS = ("low", "medium", "high", "critical")

KINDS: dict[str, KindSpec] = {
    spec.kind: spec
    for spec in (
        KindSpec("project", "projects", 1, (
            Field("name", required=True), _DESCRIPTION, _TYPE_KEY,
            _state("draft", "active", "paused", "complete", "archived"),
            Field("facet_context", enum=("personal", "client", "commercial", "internal",
                                         "open_source", "community", "academic",
                                         "nonprofit", "startup")),
            Field("facet_scale", enum=("micro", "small", "medium", "large", "epic")),
            Field("facet_stage", enum=("discovery", "planning", "execution", "launch",
                                       "maintenance", "complete")),
            Field("start_at", TIME), Field("end_at", TIME), _PROPS,
        ), display="name", body=("description",)),
        KindSpec("task", "tasks", 2, (
            _PROJECT_ID, Field("title", required=True), _DESCRIPTION, _TYPE_KEY,
            _state("todo", "in_progress", "blocked", "done"),
            Field("priority", INT, default=3, bounds=(1, 5)), Field("due_at", TIME),
            Field("plan_id", references="plan"), Field("goal_id", references="goal"),
            Field("supporting_milestone_id", references="milestone"), _PROPS,
        ), display="title", body=("description",)),
        KindSpec("goal", "goals", 3, (
            _PROJECT_ID, Field("name", required=True), _DESCRIPTION, _TYPE_KEY,
            _state("draft", "active", "achieved", "abandoned"), Field("target_at", TIME), _PROPS,
        ), display="name", body=("description",)),
        KindSpec("plan", "plans", 4, (
            _PROJECT_ID, Field("name", required=True), _DESCRIPTION, _TYPE_KEY,
            _state("draft", "active", "blocked", "complete"), _PROPS,
        ), display="name", body=("description",)),
        KindSpec("document", "documents", 5, (
            _PROJECT_ID, Field("title", required=True), Field("type_key", default="document.note"),
            _state("draft", "review", "published", "archived"), Field("content"),
            Field("parent_id", references="document"), Field("position", INT), _PROPS,
        ), display="title", body=("content",)),
        KindSpec("output", "outputs", 6, (
            _PROJECT_ID, Field("name", required=True), _TYPE_KEY,
            _state("draft", "review", "published"), _DESCRIPTION, _PROPS,
        ), display="name", body=("description",)),
        KindSpec("milestone", "milestones", 7, (
            _PROJECT_ID, Field("title", required=True), _DESCRIPTION, Field("due_at", TIME),
            _state("pending", "in_progress", "achieved", "missed"), _PROPS,
        ), display="title", body=("description",)),
        KindSpec("risk", "risks", 8, (
            _PROJECT_ID, Field("title", required=True), _DESCRIPTION,
            Field("impact", enum=_LEVELS), Field("probability", enum=_LEVELS[:3]),
            _state("identified", "mitigating", "resolved", "occurred"), Field("mitigation"), _PROPS,
        ), display="title", body=("description", "mitigation")),
        KindSpec("decision", "decisions", 9, (
            _PROJECT_ID, Field("title", required=True), Field("rationale"), Field("outcome"),
            Field("decision_at", TIME), _state("proposed", "accepted", "rejected", "superseded"),
            _PROPS,
        ), display="title", body=("rationale", "outcome")),
        KindSpec("requirement", "requirements", 10, (
            _PROJECT_ID, Field("text", required=True), _TYPE_KEY,
            Field("priority", INT, bounds=(1, 5)),
            _state("draft", "approved", "implemented", "dropped"), _PROPS,
        ), display="text", body=()),
        KindSpec("template", "templates", 11, (
            Field("scope", required=True, enum=("project", "plan", "task", "output",
                                                "document", "goal", "requirement")),
            Field("type_key", required=True), Field("name", required=True), Field("realm"),
            _DESCRIPTION, Field("status", enum=("available", "requested"), default="available"),
            _PROPS,
        ), display="name", body=("description",)),
    )
}

ENTITY_KINDS: tuple[str, ...] = tuple(k for k in KINDS if k != "template")
"""The ten kinds that live in projects and can be linked by edges."""

KIND_BY_NUMBER: dict[int, str] = {spec.number: spec.kind for spec in KINDS.values()}

EDGE_COLUMNS = ("id", "src_kind", "src_id", "dst_kind", "dst_id", "rel", "props", "created_at")
LINK_COLUMNS = ("task_id", "document_id", "role", "created_at")


def spec_for(kind: str) -> KindSpec:
    """The spec of ``kind``; an :class:`InvalidValue` names the valid kinds."""
    try:
        return KINDS[kind]
    except KeyError:
        raise InvalidValue("kind", f"unknown kind {kind!r}", tuple(KINDS)) from None
