"""What a write transaction did, as the net difference it makes.

A dry-run reports this instead of committing, and a real run can show it as a
diff. Entries are net: a row created and then edited in the same transaction
is reported once as created (with its final content); created then deleted
is not reported at all.
"""

from __future__ import annotations

from typing import Any

from ._rows import copy_json

# Bumped on every write, so comparing it would make every update look different.
IGNORED_FIELDS = frozenset({"updated_at"})

Key = tuple[str, str]


class ChangeSet:
    """The entities, edges and task-document links a transaction changed."""

    def __init__(self) -> None:
        self._created: dict[Key, dict] = {}
        self._updated: dict[Key, tuple[dict, dict]] = {}
        self._deleted: dict[Key, dict] = {}
        self._edges_added: dict[str, dict] = {}
        self._edges_removed: dict[str, dict] = {}
        self._links_added: dict[Key, dict] = {}
        self._links_removed: dict[Key, dict] = {}

    # -- recording (called by the backend) ---------------------------------

    def entity_created(self, kind: str, row: dict) -> None:
        key = (kind, row["id"])
        if key in self._deleted:
            self._updated[key] = (self._deleted.pop(key), _copy(row))
        else:
            self._created[key] = _copy(row)

    def entity_updated(self, kind: str, before: dict, after: dict) -> None:
        key = (kind, after["id"])
        if key in self._created:
            self._created[key] = _copy(after)
        elif key in self._updated:
            self._updated[key] = (self._updated[key][0], _copy(after))
        else:
            self._updated[key] = (_copy(before), _copy(after))

    def entity_deleted(self, kind: str, row: dict) -> None:
        key = (kind, row["id"])
        if self._created.pop(key, None) is not None:
            return
        original = self._updated.pop(key, (row, row))[0]
        self._deleted[key] = _copy(original)

    def edge_added(self, edge: dict) -> None:
        self._edges_added[edge["id"]] = _copy(edge)

    def edge_removed(self, edge: dict) -> None:
        if self._edges_added.pop(edge["id"], None) is None:
            self._edges_removed[edge["id"]] = _copy(edge)

    def link_added(self, link: dict) -> None:
        key = (link["task_id"], link["document_id"])
        removed = self._links_removed.pop(key, None)
        if removed != link:
            if removed is not None:
                self._links_removed[key] = removed
            self._links_added[key] = _copy(link)

    def link_removed(self, link: dict) -> None:
        key = (link["task_id"], link["document_id"])
        if self._links_added.pop(key, None) is None:
            self._links_removed[key] = _copy(link)

    # -- reading -----------------------------------------------------------

    def updated_fields(self, kind: str, id: str) -> dict[str, dict[str, Any]]:
        """Per-field ``{before, after}`` for one updated entity (empty if none)."""
        pair = self._updated.get((kind, id))
        return _field_diff(*pair) if pair else {}

    def __bool__(self) -> bool:
        return any(self.to_dict().values())

    def to_dict(self) -> dict[str, list]:
        """The JSON-serialisable report, in the order changes were made."""
        updated = []
        for (kind, id), (before, after) in self._updated.items():
            fields = _field_diff(before, after)
            if fields:
                updated.append({"kind": kind, "id": id, "fields": fields})
        return {
            "created": [{"kind": k, "id": i, "row": _copy(r)} for (k, i), r in self._created.items()],
            "updated": updated,
            "deleted": [{"kind": k, "id": i, "row": _copy(r)} for (k, i), r in self._deleted.items()],
            "edges_added": [_copy(e) for e in self._edges_added.values()],
            "edges_removed": [_copy(e) for e in self._edges_removed.values()],
            "links_added": [_copy(x) for x in self._links_added.values()],
            "links_removed": [_copy(x) for x in self._links_removed.values()],
        }


def _field_diff(before: dict, after: dict) -> dict[str, dict[str, Any]]:
    return {
        name: {"before": _copy(before.get(name)), "after": _copy(after.get(name))}
        for name in sorted(before.keys() | after.keys())
        if name not in IGNORED_FIELDS and before.get(name) != after.get(name)
    }


def _copy(value: Any) -> Any:
    return copy_json(value)
