"""Which stored entities can fill an id argument: ``project_id`` offers the projects by name.

Front ends use this for pickers and completion. The kind is read from the
argument's name (``task_id``, ``new_parent_id``); names that may hold any kind
(``entity_id``, ``src_id``) search every kind.
"""

from __future__ import annotations

from collections.abc import Iterator
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


# A document of this type holds other documents: pickers call it a folder.
FOLDER_TYPE = "document.folder"


@dataclass(frozen=True)
class IdChoice:
    """One entity that fits an id argument; ``what`` says what it is in words (``folder``, ``document (spec)``)."""

    id: str
    label: str
    kind: str
    project_id: str | None = None
    what: str = ""


def _what(kind: str, row: dict[str, Any]) -> str:
    type_key = row.get("type_key") or row.get("type")
    if kind == "document" and type_key == FOLDER_TYPE:
        return "folder"
    if isinstance(type_key, str) and "." in type_key:
        return f"{kind} ({type_key.split('.', 1)[1]})"
    return kind


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


def _excluded(tx: Any, document_id: str | None) -> set[str]:
    """A document and everything under it: none of them can become its new parent."""
    if not document_id:
        return set()
    try:
        return {row["id"] for row in tx.document_subtree(document_id)}
    except Exception:  # an id that names no document excludes nothing
        return set()


def id_choices(
    store: Any, argument: str, text: str = "", *, project_id: str | None = None, limit: int = 20,
    moving: str | None = None,
) -> list[IdChoice]:
    """Entities for ``argument``, best matches for ``text`` first (all of a kind when ``text`` is empty).

    ``moving`` is the document being moved when ``argument`` picks its new
    parent: it and its descendants are left out. Folders come first among documents.
    """
    kind = kind_for_argument(argument)
    if kind is None or kind == "edge":
        return []
    with store.read() as tx:
        excluded = _excluded(tx, moving) if kind == "document" else set()
        if kind == "*" or text.strip():
            kinds = list(ENTITY_KINDS) if kind == "*" else [kind]
            if not text.strip():
                return []
            hits = tx.search_all(text, kinds=kinds, project_id=project_id, limit=limit + len(excluded))
            found = [h for h in hits if h["id"] not in excluded]
            rows = {h["id"]: tx.find(h["kind"], h["id"]) or {} for h in found if h["kind"] == "document"}
            choices = [IdChoice(h["id"], h["name"], h["kind"], h.get("project_id"), _what(h["kind"], rows.get(h["id"], h))) for h in found]
        else:
            filters = {"project_id": project_id} if project_id and kind != "project" and kind != "template" else None
            page = tx.list(kind, filters, limit=limit + len(excluded), order="-updated_at")
            choices = [
                IdChoice(row["id"], _label(kind, row), kind, row.get("project_id"), _what(kind, row))
                for row in page.rows if row["id"] not in excluded
            ]
    if kind == "document":
        choices.sort(key=lambda c: c.what != "folder")  # stable: the ranking holds within each group
    return choices[:limit]


def _id_values(node: Any, key: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(node, dict):
        for name, value in node.items():
            yield from _id_values(value, str(name))
    elif isinstance(node, list):
        # ``document_ids: [...]`` holds documents, as ``document_id`` would.
        yield from (pair for item in node for pair in _id_values(item, key[:-1] if key.endswith("_ids") else key))
    elif isinstance(node, str) and node and (key.endswith("_id") or key == "id"):
        yield node, key


def ids_in_args(*args: Any) -> dict[str, str]:
    """Each id the argument objects hold (nested ones too), with the name of the argument holding it."""
    return {value: key for one in args for value, key in _id_values(one)}


def id_names(store: Any, ids: dict[str, str]) -> dict[str, IdChoice]:
    """The stored entity each id names, for showing its name beside it; ``ids`` maps each id to the argument
    holding it (``new_parent_id`` says document). Ids that name nothing stored, or nothing with a name, are left out."""
    found: dict[str, IdChoice] = {}
    with store.read() as tx:
        for entity_id, argument in ids.items():
            hinted = kind_for_argument(argument)
            kind = hinted if hinted in KINDS else None
            row = tx.find(kind, entity_id) if kind else None
            if row is None:
                kind = tx.kind_of(entity_id)
                row = tx.find(kind, entity_id) if kind else None
            if kind and row is not None and _label(kind, row) != entity_id:
                found[entity_id] = IdChoice(entity_id, _label(kind, row), kind, row.get("project_id"), _what(kind, row))
    return found
