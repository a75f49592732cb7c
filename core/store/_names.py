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


def _ids_in_row(row: dict[str, Any]) -> Iterator[str]:
    for key, value in row.items():
        if key.endswith("_id") and isinstance(value, str):
            yield value


def _mentioned(diff: dict[str, Any]) -> Iterator[str]:
    for section in ("created", "deleted"):
        for entry in diff.get(section, []):
            yield from _ids_in_row(entry.get("row") or {})
    for entry in diff.get("updated", []):
        yield str(entry.get("id"))
        for field, pair in (entry.get("fields") or {}).items():
            if field.endswith("_id"):
                yield from (v for v in (pair.get("before"), pair.get("after")) if isinstance(v, str))
    for section in ("edges_added", "edges_removed"):
        for edge in diff.get(section, []):
            yield from (v for v in (edge.get("src_id"), edge.get("dst_id")) if isinstance(v, str))
    for section in ("links_added", "links_removed"):
        for link in diff.get(section, []):
            yield from (v for v in (link.get("task_id"), link.get("document_id")) if isinstance(v, str))


def diff_names(tx: Any, diff: dict[str, Any], args: dict[str, Any] | None = None) -> Names:
    """``{id: {"kind", "name"}}`` for every entity ``diff`` (or an ``…_id`` argument of the call) mentions that can be named."""
    names: Names = {}
    extra = [v for k, v in (args or {}).items() if k.endswith("_id") and isinstance(v, str)]
    for section in ("created", "deleted"):
        for entry in diff.get(section, []):
            kind, row = str(entry.get("kind")), entry.get("row") or {}
            names[str(entry.get("id"))] = {"kind": kind, "name": _display(kind, row)}
    for entity_id in [*_mentioned(diff), *extra]:
        if entity_id in names:
            continue
        kind = tx.kind_of(entity_id)
        row = tx.find(kind, entity_id) if kind else None
        if kind and row is not None:
            names[entity_id] = {"kind": kind, "name": _display(kind, row)}
    return names
