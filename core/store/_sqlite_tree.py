"""The document tree: children, paths, subtrees, and moves that keep order.

Siblings are numbered 0..n-1 by ``position``. Every change to a sibling list
(insert, move, delete) renumbers it, so positions never have gaps or repeats.
"""

from __future__ import annotations

from ._errors import Conflict, InvalidValue, NotFound
from ._kinds import KINDS
from ._sqlite_base import column_list
from ._sqlite_entities import EntityReads, EntityWrites

_DOCUMENT = KINDS["document"]
_SIBLING_ORDER = "ORDER BY position, seq"
# A guard against looping forever if a cycle ever slipped into stored data.
_MAX_DEPTH = 10_000


class TreeReads(EntityReads):
    """Reading the tree."""

    def document_children(self, project_id: str, parent_id: str | None) -> list[dict]:
        return self._select(_DOCUMENT, "project_id = ? AND parent_id IS ?", (project_id, parent_id), _SIBLING_ORDER)

    def document_path(self, document_id: str) -> list[dict]:
        self._require("document", document_id)
        sql = (
            "WITH RECURSIVE up(id, depth) AS ("
            " SELECT id, 0 FROM documents WHERE id = ? UNION ALL"
            " SELECT d.parent_id, up.depth + 1 FROM documents d JOIN up ON d.id = up.id"
            f" WHERE d.parent_id IS NOT NULL AND up.depth < {_MAX_DEPTH})"
            f" SELECT {column_list(_DOCUMENT.columns, 'd')} FROM documents d JOIN up ON d.id = up.id"
            " ORDER BY up.depth DESC"
        )
        return self._entity_rows(_DOCUMENT, sql, (document_id,))

    def document_subtree(self, document_id: str) -> list[dict]:
        self._require("document", document_id)
        sql = (
            "WITH RECURSIVE down(id, depth) AS ("
            " SELECT id, 0 FROM documents WHERE id = ? UNION ALL"
            " SELECT d.id, down.depth + 1 FROM documents d JOIN down ON d.parent_id = down.id"
            f" WHERE down.depth < {_MAX_DEPTH})"
            f" SELECT {column_list(_DOCUMENT.columns, 'd')} FROM documents d JOIN down ON d.id = down.id"
            " ORDER BY down.depth, d.position, d.seq"
        )
        return self._entity_rows(_DOCUMENT, sql, (document_id,))

    def document_tree(self, project_id: str, *, root_id: str | None = None,
                      max_depth: int | None = None) -> list[dict]:
        if root_id is not None:
            rows = self.document_subtree(root_id)
            if rows[0]["project_id"] != project_id:
                raise NotFound("document", root_id)
            tops = [rows[0]["id"]]
        else:
            rows = self._select(_DOCUMENT, "project_id = ?", (project_id,), _SIBLING_ORDER)
            tops = [r["id"] for r in rows if r["parent_id"] is None]
        children: dict[str | None, list[dict]] = {}
        for row in rows:
            children.setdefault(row["parent_id"], []).append(row)
        by_id = {row["id"]: row for row in rows}
        # An explicit stack, not recursion: a chain of documents may be deeper
        # than Python's recursion limit.
        tree: list[dict] = []
        stack = [(by_id[id], 0, tree) for id in reversed(tops)]
        while stack:
            row, depth, siblings = stack.pop()
            node = {**row, "children": []}
            siblings.append(node)
            if max_depth is None or depth < max_depth:
                stack.extend((child, depth + 1, node["children"]) for child in reversed(children.get(row["id"], [])))
        return tree


class TreeWrites(TreeReads, EntityWrites):
    """Placing new documents and moving existing ones."""

    def move_document(self, document_id: str, new_parent_id: str | None,
                      position: int | None = None) -> tuple[dict, dict]:
        document = self._require("document", document_id)
        if position is not None and position < 0:
            raise InvalidValue("position", "must be 0 or more")
        if new_parent_id is not None:
            self._check_parent(document["project_id"], new_parent_id)
            if any(row["id"] == new_parent_id for row in self.document_subtree(document_id)):
                raise Conflict(
                    f"cycle: document {new_parent_id} is {document_id} itself or inside it",
                    document_id=document_id, new_parent_id=new_parent_id,
                )
        old_parent_id = document["parent_id"]
        if old_parent_id == new_parent_id and position is None:
            return document, document
        siblings = [s for s in self.document_children(document["project_id"], new_parent_id) if s["id"] != document_id]
        index = len(siblings) if position is None else min(position, len(siblings))
        moved = {**document, "parent_id": new_parent_id}
        self._renumber(siblings[:index] + [moved] + siblings[index:], original={document_id: document})
        if old_parent_id != new_parent_id:
            self._compact_children(document["project_id"], old_parent_id)
        return document, self._require("document", document_id)

    def _place_new_document(self, row: dict) -> None:
        """Give a new document its position, shifting the siblings after it."""
        if row["parent_id"] is not None:
            self._check_parent(row["project_id"], row["parent_id"])
        wanted = row["position"]
        if wanted is not None and wanted < 0:
            raise InvalidValue("position", "must be 0 or more")
        # Siblings are numbered 0..n-1, so the last position tells how many there are: one
        # step down the (project_id, parent_id, position) index, where counting read every
        # sibling and made filling one folder quadratic.
        last = self._fetch(
            "SELECT position FROM documents WHERE project_id = ? AND parent_id IS ? ORDER BY position DESC LIMIT 1",
            (row["project_id"], row["parent_id"]),
        )
        siblings = last[0][0] + 1 if last else 0
        self._reads.saw_query(["children", row["project_id"], row["parent_id"]], siblings, [])
        row["position"] = siblings if wanted is None else min(wanted, siblings)
        later = self._select(
            _DOCUMENT, "project_id = ? AND parent_id IS ? AND position >= ?",
            (row["project_id"], row["parent_id"], row["position"]), _SIBLING_ORDER,
        )
        for offset, sibling in enumerate(later, start=row["position"] + 1):
            self._update_row(_DOCUMENT, sibling, {**sibling, "position": offset})

    def _compact_children(self, project_id: str, parent_id: str | None) -> None:
        self._renumber(self.document_children(project_id, parent_id))

    def _renumber(self, ordered: list[dict], original: dict[str, dict] | None = None) -> None:
        for index, row in enumerate(ordered):
            before = (original or {}).get(row["id"], row)
            self._update_row(_DOCUMENT, before, {**row, "position": index})

    def _check_parent(self, project_id: str, parent_id: str) -> None:
        parent = self._find("document", parent_id)
        if parent is None:
            raise NotFound("document", parent_id)
        if parent["project_id"] != project_id:
            raise Conflict(f"parent document {parent_id} belongs to another project", field="parent_id")
