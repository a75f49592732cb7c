"""Edges between entities and the links between tasks and documents."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._errors import Conflict, InvalidValue, NotFound
from ._kinds import DOCUMENT_ROLES, EDGE_COLUMNS, ENTITY_KINDS, KINDS, LINK_COLUMNS, REL_VALUES
from ._protocol import Direction
from ._rows import Shape, check_json_object, copy_row, decode, encode_json, json_columns_of, new_id
from ._sqlite_base import _EDGE_JSON, _EDGES_WHERE, EDGE_KIND, LINK_KIND, SQLiteTxCore, column_list, link_key

_EDGE_ORDER = "ORDER BY created_at, seq"
_EDGE_ENDS = {"outgoing": "src_id = ?1", "incoming": "dst_id = ?1", "both": "(src_id = ?1 OR dst_id = ?1)"}
_TASK = KINDS["task"]
_TASK_JSON = json_columns_of(_TASK)
_TASK_ROW = f"SELECT {column_list(_TASK.columns)} FROM tasks WHERE id = ?"
_TASK_LINKS = "SELECT document_id, role FROM task_documents WHERE task_id = ? ORDER BY created_at, rowid"
_TASK_EDGES = f"{_EDGES_WHERE}{_EDGE_ENDS['both']} {_EDGE_ORDER}"
_PROJECT_IDS = "SELECT ?1 UNION ALL " + " UNION ALL ".join(
    f"SELECT id FROM {spec.table} WHERE project_id = ?1" for spec in KINDS.values() if spec.in_project
)


class GraphReads(SQLiteTxCore):
    """Reading edges and task-document links."""

    def get_edge(self, edge_id: str) -> dict:
        rows = self._edge_rows("id = ?", (edge_id,))
        if not rows:
            raise NotFound(EDGE_KIND, edge_id)
        return rows[0]

    def find_edge(self, src_id: str, dst_id: str, rel: str) -> dict | None:
        rows = self._edge_rows("src_id = ? AND dst_id = ? AND rel = ?", (src_id, dst_id, rel))
        return rows[0] if rows else None

    def edges_of(
        self, entity_id: str, *, direction: Direction = "both", rel: str | None = None,
        limit: int | None = None,
    ) -> list[dict]:
        ends = _EDGE_ENDS
        if direction not in ends:
            raise InvalidValue("direction", f"{direction!r} is not a direction", tuple(ends))
        where, params = ends[direction], [entity_id]
        if rel is not None:
            where += " AND rel = ?2"
            params.append(rel)
        tail = _EDGE_ORDER + (f" LIMIT {int(limit)}" if limit is not None else "")
        return self._edge_rows(where, params, tail)

    def project_edges(self, project_id: str) -> list[dict]:
        where = f"src_id IN ({_PROJECT_IDS}) OR dst_id IN ({_PROJECT_IDS})"
        return self._edge_rows(where, (project_id,), _EDGE_ORDER)

    def task_documents(self, task_id: str, role: str | None = None, *, task_read: bool = False) -> list[dict]:
        if not task_read:
            self._require("task", task_id)
        params = [task_id] if role is None else [task_id, role]
        where = "task_id = ?" if role is None else "task_id = ? AND role = ?"
        links = self._link_rows(where, params, "ORDER BY created_at, rowid")
        if not links:
            return []
        ids = [link["document_id"] for link in links]
        documents = {d["id"]: d for d in self._select(KINDS["document"], f"id IN ({', '.join('?' * len(ids))})", ids)}
        return [
            {**documents[link["document_id"]], "role": link["role"], "linked_at": link["created_at"]}
            for link in links
        ]

    def task_details(self, task_id: str, document_shape: Shape) -> tuple[dict, list[dict], list[dict]]:
        """A task's row, its linked documents (keyed as ``document_shape`` says, each with its ``role``) and the edges touching it.

        What a task's get shows, read in its three statements with nothing in
        between: a transaction that notes nothing for the digest fetches only
        the documents' shown columns. One that observes reads through
        :meth:`get`, :meth:`task_documents` and :meth:`edges_of`, which note
        every whole row; both give the same answer
        (tests/exec/test_get_path.py). :class:`NotFound` if there is no
        such task.
        """
        if self._observing:
            task = self._require("task", task_id)
            documents = [
                {**{key: row[column] for key, column in document_shape}, "role": row["role"]}
                for row in self.task_documents(task_id, task_read=True)
            ]
            return task, documents, self.edges_of(task_id)
        # The row, its links and its edges in one call (the linked documents, when there are any, after them).
        found, links, edge_rows = self._fetch_each((_TASK_ROW, (task_id,)), (_TASK_LINKS, (task_id,)), (_TASK_EDGES, (task_id,)))
        if not found:
            raise NotFound("task", task_id)
        task = decode(_TASK.columns, found[0], _TASK_JSON)
        documents: list[dict] = []
        if links:
            keys = (*(key for key, _ in document_shape), "role")
            columns = ", ".join(column for _, column in document_shape)
            shown = {values[0]: values for values in self._fetch(f"SELECT {columns} FROM documents WHERE id IN ({', '.join('?' * len(links))})",
                                                                 [document_id for document_id, _ in links])}
            documents = [dict(zip(keys, (*shown[document_id], role))) for document_id, role in links]
        edges = [decode(EDGE_COLUMNS, values, _EDGE_JSON) for values in edge_rows] if edge_rows else []
        return task, documents, edges


class GraphWrites(GraphReads):
    """Adding and removing edges and task-document links."""

    def add_edge(
        self, src_kind: str, src_id: str, dst_kind: str, dst_id: str, rel: str,
        props: Mapping[str, Any] | None = None, *, edge_id: str | None = None,
        created_at: str | None = None,
    ) -> dict:
        for field, kind in (("src_kind", src_kind), ("dst_kind", dst_kind)):
            if kind not in ENTITY_KINDS:
                raise InvalidValue(field, f"{kind!r} cannot be linked", ENTITY_KINDS)
        if rel not in REL_VALUES:
            raise InvalidValue("rel", f"{rel!r} is not a relation", REL_VALUES)
        if props is not None:
            check_json_object("props", dict(props) if isinstance(props, Mapping) else props)
        if src_id == dst_id:
            raise Conflict("an edge cannot link an entity to itself")
        self._require(src_kind, src_id)
        self._require(dst_kind, dst_id)
        existing = self.find_edge(src_id, dst_id, rel)
        if existing is not None:
            raise Conflict(f"the edge {src_id} -{rel}-> {dst_id} already exists", edge_id=existing["id"])
        edge = {
            "id": edge_id or new_id(), "src_kind": src_kind, "src_id": src_id,
            "dst_kind": dst_kind, "dst_id": dst_id, "rel": rel,
            "props": dict(props or {}), "created_at": created_at or self._clock(),
        }
        values = [encode_json(edge[c]) if c == "props" else edge[c] for c in EDGE_COLUMNS]
        self._run(f"INSERT INTO edges ({', '.join(EDGE_COLUMNS)}) VALUES ({', '.join('?' * len(EDGE_COLUMNS))})", values)
        self._reads.wrote(EDGE_KIND, edge["id"])
        self.changes.edge_added(edge)
        return copy_row(edge)

    def remove_edge(self, edge_id: str) -> dict:
        edge = self.get_edge(edge_id)
        self._run("DELETE FROM edges WHERE id = ?", (edge_id,))
        self._reads.wrote(EDGE_KIND, edge_id)
        self.changes.edge_removed(edge)
        return edge

    def link_task_document(
        self, task_id: str, document_id: str, role: str = "reference", *, created_at: str | None = None,
    ) -> dict:
        if role not in DOCUMENT_ROLES:
            raise InvalidValue("role", f"{role!r} is not a document role", DOCUMENT_ROLES)
        self._require("task", task_id)
        self._require("document", document_id)
        if self._link_rows("task_id = ? AND document_id = ?", (task_id, document_id)):
            raise Conflict(f"document {document_id} is already linked to task {task_id}")
        link = {"task_id": task_id, "document_id": document_id, "role": role,
                "created_at": created_at or self._clock()}
        self._run(
            f"INSERT INTO task_documents ({', '.join(LINK_COLUMNS)}) VALUES (?, ?, ?, ?)",
            [link[c] for c in LINK_COLUMNS],
        )
        self._reads.wrote(LINK_KIND, link_key(link))
        self.changes.link_added(link)
        return dict(link)

    def unlink_task_document(self, task_id: str, document_id: str) -> dict:
        links = self._link_rows("task_id = ? AND document_id = ?", (task_id, document_id))
        if not links:
            raise NotFound(LINK_KIND, f"{task_id}/{document_id}")
        self._remove_link(links[0])
        return links[0]

    def _remove_link(self, link: dict) -> None:
        self._run("DELETE FROM task_documents WHERE task_id = ? AND document_id = ?",
                  (link["task_id"], link["document_id"]))
        self._reads.wrote(LINK_KIND, link_key(link))
        self.changes.link_removed(link)

    def _remove_edges_touching(self, entity_id: str) -> list[dict]:
        edges = self.edges_of(entity_id)
        for edge in edges:
            self.remove_edge(edge["id"])
        return edges
