"""The kind and display name of each id a diff mentions, so people read names, not UUIDs.

Looked up inside the write transaction, after the handler ran: an entity the
call created (even in a dry-run that will roll back) is named too, and a
deleted one is named from the row the diff carries.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from ._kinds import KINDS

Names = dict[str, dict[str, str]]


def _display(kind: str, row: dict[str, Any]) -> str:
    spec = KINDS.get(kind)
    value = row.get(spec.display) if spec is not None else None
    return str(value) if value not in (None, "") else ""


def _kind_named_by(field: str) -> str | None:
    """The kind an ``<kind>_id`` field names (``project_id``: project); None when the name does not say."""
    kind = field[:-3] if field.endswith("_id") else None
    return kind if kind in KINDS else None


def _ids_in_row(row: dict[str, Any]) -> Iterator[tuple[str, str | None]]:
    for key, value in row.items():
        if key.endswith("_id") and isinstance(value, str):
            yield value, _kind_named_by(key)


def _mentioned(diff: dict[str, Any]) -> Iterator[tuple[str, str | None]]:
    """Each id the diff mentions, with the kind it must be when the field's name says so."""
    for section in ("created", "deleted"):
        for entry in diff.get(section, []):
            yield from _ids_in_row(entry.get("row") or {})
    for entry in diff.get("updated", []):
        yield str(entry.get("id")), entry.get("kind")
        for field, pair in (entry.get("fields") or {}).items():
            if field.endswith("_id"):
                yield from ((v, _kind_named_by(field)) for v in (pair.get("before"), pair.get("after")) if isinstance(v, str))
    for section in ("edges_added", "edges_removed"):
        for edge in diff.get(section, []):
            yield from ((v, None) for v in (edge.get("src_id"), edge.get("dst_id")) if isinstance(v, str))
    for section in ("links_added", "links_removed"):
        for link in diff.get(section, []):
            yield from ((v, kind) for v, kind in ((link.get("task_id"), "task"), (link.get("document_id"), "document")) if isinstance(v, str))


def diff_names(tx: Any, diff: dict[str, Any], args: dict[str, Any] | None = None) -> Names:
    """``{id: {"kind", "name"}}`` for every entity ``diff`` (or an ``…_id`` argument of the call) mentions that can be named."""
    names: Names = {}
    extra = [(v, _kind_named_by(k)) for k, v in (args or {}).items() if k.endswith("_id") and isinstance(v, str)]
    for section in ("created", "deleted"):
        for entry in diff.get(section, []):
            kind, row = str(entry.get("kind")), entry.get("row") or {}
            names[str(entry.get("id"))] = {"kind": kind, "name": _display(kind, row)}
    for entity_id, hinted in [*_mentioned(diff), *extra]:
        if entity_id in names:
            continue
        # One lookup in the table the field names (none if the transaction knows the row
        # to be current, see known_row); only an id of unsaid kind asks every table.
        row = (tx.known_row(hinted, entity_id) or tx.find(hinted, entity_id)) if hinted in KINDS else None
        kind = hinted if row is not None else tx.kind_of(entity_id)
        if row is None and kind:
            row = tx.find(kind, entity_id)
        if kind and row is not None:
            names[entity_id] = {"kind": kind, "name": _display(kind, row)}
    return names
