"""Which stored entities can fill an id argument: ``project_id`` offers the projects by name.

Front ends use this for pickers and completion. The kind is read from the
argument's name (``task_id``, ``new_parent_id``); names that may hold any kind
(``entity_id``, ``src_id``) search every kind.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .store._kinds import ENTITY_KINDS, KINDS

# Argument names whose kind is not their prefix.
_KIND_OF_ARGUMENT = {
    "parent_id": "document",
    "new_parent_id": "document",
    "root_id": "document",
    "supporting_milestone_id": "milestone",
    "edge_id": "edge",
}
_ANY_KIND = {"entity_id", "src_id", "dst_id", "id"}


@dataclass(frozen=True)
class IdChoice:
    """One entity that fits an id argument."""

    id: str
    label: str
    kind: str
    project_id: str | None = None


def kind_for_argument(name: str) -> str | None:
    """``task_id`` -> ``task``; ``entity_id`` -> ``*`` (any kind); other names -> ``None``."""
    if name in _KIND_OF_ARGUMENT:
        return _KIND_OF_ARGUMENT[name]
    if name in _ANY_KIND:
        return "*"
    if name.endswith("_id") and name[:-3] in KINDS:
        return name[:-3]
    return None


def _label(kind: str, row: dict[str, Any]) -> str:
    spec = KINDS.get(kind)
    name = row.get(spec.display) if spec else None
    return str(name or row.get("id"))


def id_choices(store: Any, argument: str, text: str = "", *, project_id: str | None = None, limit: int = 20) -> list[IdChoice]:
    """Entities for ``argument``, best matches for ``text`` first (all of a kind when ``text`` is empty)."""
    kind = kind_for_argument(argument)
    if kind is None or kind == "edge":
        return []
    with store.read() as tx:
        if kind == "*" or text.strip():
            kinds = list(ENTITY_KINDS) if kind == "*" else [kind]
            if not text.strip():
                return []
            hits = tx.search_all(text, kinds=kinds, project_id=project_id, limit=limit)
            return [IdChoice(h["id"], h["name"], h["kind"], h.get("project_id")) for h in hits]
        filters = {"project_id": project_id} if project_id and kind != "project" and kind != "template" else None
        page = tx.list(kind, filters, limit=limit, order="-updated_at")
        return [IdChoice(row["id"], _label(kind, row), kind, row.get("project_id")) for row in page.rows]
