"""The short forms entities take in lists, search hits and nested results.

Progressive disclosure rests on these: a list answers in a few tokens per
entity and the caller opens one entity for its full row. The shapes are part
of the tool contract (docs/ontology.md, "Abbreviated summaries"); read and
write handlers both build their short forms here, so change them here only,
and only together with that page.

- :func:`abbreviate` is the summary of one row of a kind:
  task ``{id, title, state, type, priority}``, project
  ``{id, name, state, type, updated_at}``, plan and goal and output
  ``{id, name, state}``, document ``{id, title, state, type}``, requirement
  ``{id, text, state, type}``, milestone ``{id, title, state, due_at}``,
  risk ``{id, title, state, impact}``, decision ``{id, title, state, decision_at}``.
- :func:`entity_reference` is the kind-neutral form used where kinds mix
  (graph nodes, linked entities): ``{kind, id, name, state}``.
"""

from __future__ import annotations

from typing import Any

from ..store import KINDS

# (key in the summary, field of the row). The display name keeps the key its
# kind uses (name, title or text); the rest are renamed to the short keys.
_STATE = ("state", "state_key")
_TYPE = ("type", "type_key")

SUMMARY_FIELDS: dict[str, tuple[tuple[str, str], ...]] = {
    "project": (("name", "name"), _STATE, _TYPE, ("updated_at", "updated_at")),
    "task": (("title", "title"), _STATE, _TYPE, ("priority", "priority")),
    "goal": (("name", "name"), _STATE),
    "plan": (("name", "name"), _STATE),
    "document": (("title", "title"), _STATE, _TYPE),
    "output": (("name", "name"), _STATE),
    "milestone": (("title", "title"), _STATE, ("due_at", "due_at")),
    "risk": (("title", "title"), _STATE, ("impact", "impact")),
    "decision": (("title", "title"), _STATE, ("decision_at", "decision_at")),
    "requirement": (("text", "text"), _STATE, _TYPE),
}
"""The summary of each of the ten entity kinds, as (summary key, row field) pairs."""

PLURALS: dict[str, str] = {
    "project": "projects", "task": "tasks", "goal": "goals", "plan": "plans",
    "document": "documents", "output": "outputs", "milestone": "milestones",
    "risk": "risks", "decision": "decisions", "requirement": "requirements",
}
"""The key a list of each kind goes under in results (``{"tasks": [...]}``)."""


def abbreviate(kind: str, row: dict[str, Any]) -> dict[str, Any]:
    """The summary of ``row``, an entity of ``kind`` (one of the ten entity kinds).

    Missing fields come out as ``None`` rather than raising, so a row from an
    older or partial source still abbreviates. An unknown kind is a
    programming error and raises :class:`ValueError`.
    """
    try:
        keys, fields = _SHAPES[kind]
    except KeyError:
        raise ValueError(f"no summary for kind {kind!r}; known: {', '.join(SUMMARY_FIELDS)}") from None
    if "id" not in row:
        raise KeyError("id")
    return dict(zip(keys, map(row.get, fields)))


# Each kind's summary keys and row fields (id first) as two tuples: a page abbreviates every row with them.
_SHAPES = {kind: (("id", *(k for k, _ in pairs)), ("id", *(f for _, f in pairs))) for kind, pairs in SUMMARY_FIELDS.items()}


def summary_shape(kind: str) -> tuple[tuple[str, str], ...]:
    """(summary key, row field) pairs, id first: passed as ``shape`` to ``tx.list``, the store makes each row this kind's summary itself."""
    return _SHAPE_PAIRS[kind]


_SHAPE_PAIRS = {kind: (("id", "id"), *pairs) for kind, pairs in SUMMARY_FIELDS.items()}


def summary_fields(kind: str) -> tuple[str, ...]:
    """The row fields :func:`abbreviate` reads for ``kind``: all a list needs to fetch."""
    return tuple(field for _, field in SUMMARY_FIELDS[kind])


def display_name(kind: str, row: dict[str, Any]) -> str | None:
    """The entity's name, title or text, whichever its kind has."""
    return row.get(KINDS[kind].display)


def entity_reference(kind: str, row: dict[str, Any]) -> dict[str, Any]:
    """``{kind, id, name, state}`` for an entity of any kind (templates give their status)."""
    return {
        "kind": kind,
        "id": row["id"],
        "name": display_name(kind, row),
        "state": row.get("state_key", row.get("status")),
    }


__all__ = ["PLURALS", "SUMMARY_FIELDS", "abbreviate", "display_name", "entity_reference", "summary_shape"]
