"""Deleting entities by the rules of docs/ontology.md.

- A task takes its task-document links and its edges with it.
- A goal, plan or milestone clears the matching reference on its tasks.
- A document with children is refused unless ``cascade``; then its whole
  subtree goes, deepest first. Links and edges go in every case.
- A project is refused while it holds anything, unless ``cascade``.
Every entity loses the edges that touch it.
"""

from __future__ import annotations

from ._errors import Conflict
from ._kinds import KINDS, spec_for
from ._protocol import Removal
from ._sqlite_graph import GraphWrites
from ._sqlite_tree import TreeWrites

# The task column that points at each kind a task can serve.
_TASK_REFERENCE = {"goal": "goal_id", "plan": "plan_id", "milestone": "supporting_milestone_id"}
# Tasks first (they point at goals, plans, milestones), documents before nothing.
_PROJECT_CONTENT_ORDER = ("task", "document", "goal", "plan", "milestone", "output", "risk",
                          "decision", "requirement")


class DeleteRules(TreeWrites, GraphWrites):
    """``delete`` for every kind."""

    def delete(self, kind: str, id: str, *, cascade: bool = False) -> Removal:
        spec_for(kind)
        self._lock_for_write()
        row = self._require(kind, id)
        removal = Removal(kind=kind, row=row)
        if kind == "document":
            self._delete_document(row, cascade, removal)
        elif kind == "project":
            self._delete_project(row, cascade, removal)
        else:
            self._delete_one(kind, row, removal)
        return removal

    def _delete_document(self, row: dict, cascade: bool, removal: Removal) -> None:
        subtree = self.document_subtree(row["id"])
        if len(subtree) > 1 and not cascade:
            raise Conflict(
                f"document {row['id']} has {len(subtree) - 1} documents under it; "
                "pass cascade=true to delete them too, or move them first",
                descendants=len(subtree) - 1,
            )
        for document in reversed(subtree):
            self._delete_one("document", document, removal)
        self._compact_children(row["project_id"], row["parent_id"])

    def _delete_project(self, row: dict, cascade: bool, removal: Removal) -> None:
        content = {kind: self._select(KINDS[kind], "project_id = ?", (row["id"],)) for kind in _PROJECT_CONTENT_ORDER}
        count = sum(len(rows) for rows in content.values())
        if count and not cascade:
            raise Conflict(f"project {row['id']} still holds {count} entities; pass cascade=true",
                           entities=count)
        for kind in _PROJECT_CONTENT_ORDER:
            rows = content[kind]
            if kind == "document":
                rows = [r for r in rows if r["parent_id"] is None]
                for root in rows:
                    for document in reversed(self.document_subtree(root["id"])):
                        self._delete_one("document", document, removal)
                continue
            for entity in rows:
                self._delete_one(kind, self._require(kind, entity["id"]), removal)
        self._delete_one("project", row, removal)

    def _delete_one(self, kind: str, row: dict, removal: Removal) -> None:
        """Delete a single row after detaching everything that points at it."""
        id = row["id"]
        if kind in ("task", "document"):
            column = "task_id" if kind == "task" else "document_id"
            for link in self._link_rows(f"{column} = ?", (id,)):
                self._remove_link(link)
                removal.links_removed.append(link)
        if kind in _TASK_REFERENCE:
            field = _TASK_REFERENCE[kind]
            for task in self._select(KINDS["task"], f"{field} = ?", (id,)):
                self._update_row(KINDS["task"], task, {**task, field: None})
                removal.cleared.append({"kind": "task", "id": task["id"], "field": field})
        removal.edges_removed.extend(self._remove_edges_touching(id))
        self._run(f"DELETE FROM {KINDS[kind].table} WHERE id = ?", (id,))
        self._reads.wrote(kind, id)
        self.changes.entity_deleted(kind, row)
        removal.deleted.append({"kind": kind, "id": id, "row": row})
