"""The floor of a read: the least any program must do to give the answer ``gw.exec`` gives.

``bench_reads.py`` and ``bench_million.py`` measure against the same floor,
on a bare connection (apsw or psycopg, no opgate code in between):

- a list page (``onto.task.list``): one read transaction; the page query the
  store runs, fetching only the columns the answer shows (id and the
  summary's fields), newest first; when the page is full, the capped count
  the store runs for ``total`` (a page that ends early is its own total);
  each row made a dict under the summary's keys; the answer (``tasks``,
  ``total``, ``limit``, ``offset``, ``has_more``) passed to ``json.dumps``.
- a get (``onto.task.get``): one read transaction; the task's row (every
  column, ``props`` decoded), its links to documents and, if there are any, those
  documents' summary columns and the edges touching it (every column, ``props``
  decoded); the answer passed to ``json.dumps``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import apsw

from opgate.core.handlers._reads_entities import NEWEST_FIRST
from opgate.core.handlers._summaries import SUMMARY_FIELDS
from opgate.core.store import COUNT_CAP
from opgate.core.store._kinds import EDGE_COLUMNS, KINDS
from opgate.core.store._sqlite_filters import order_clause

TASK_COLUMNS = KINDS["task"].columns
_SUMMARY = (("id", "id"), *SUMMARY_FIELDS["task"])
_SUMMARY_KEYS = tuple(key for key, _ in _SUMMARY)
_SUMMARY_SQL = ", ".join(column for _, column in _SUMMARY)
_ORDER = order_clause(KINDS["task"], NEWEST_FIRST)
_DOCUMENT_KEYS = ("id", "title", "state", "type")
# Links first, then their documents only if there are any: cheaper than a join in the usual case (no links).
# Linked in one second, links keep the order they were made in, as the store reads them (PostgreSQL's rowid is seq).
_LINKS_SQL = "SELECT document_id, role FROM task_documents WHERE task_id = ? ORDER BY created_at, rowid"
_DOCUMENTS_SQL = "SELECT id, title, state_key, type_key FROM documents WHERE id IN ({})"
_EDGES_SQL = f"SELECT {', '.join(EDGE_COLUMNS)} FROM edges WHERE src_id = ? OR dst_id = ? ORDER BY created_at, seq"
_TASK_SQL = f"SELECT {', '.join(TASK_COLUMNS)} FROM tasks WHERE id = ?"


def fifty_task_workspace(name: str) -> Path:
    """A new SQLite workspace of one project and 50 tasks, closed, in a temporary folder: what a get of one task reads."""
    import tempfile

    from opgate.core.store import open_store

    db = Path(tempfile.mkdtemp()) / name
    store = open_store(db, demo=False)
    with store.write() as tx:
        project = tx.insert("project", {"name": "Reads"})["id"]
        for n in range(50):
            tx.insert("task", {"project_id": project, "title": f"Task {n}", "props": {"n": n, "note": "x" * 20}})
    store.close()
    return db


def is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


class BareConnection:
    """One connection with no opgate code in between: the floor's."""

    def __init__(self, location: str, *, one_cursor: bool = False):
        self.postgres = is_postgres(location)
        if self.postgres:
            import psycopg

            self.conn = psycopg.connect(location, autocommit=True)
        else:
            self.conn = apsw.Connection(location)
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA synchronous = NORMAL")
            self.conn.execute("PRAGMA cache_size = -65536")  # as the store's connections
            # As the store's connections too: without the query planner stability guarantee, SQLite prepares a
            # statement that sorts and binds a value (a get's links and edges, every page with LIMIT ?) again on
            # every run, which was most of this floor (docs/performance.md, "A get in session 9").
            self.conn.config(apsw.SQLITE_DBCONFIG_ENABLE_QPSG, 1)
        # ``conn.execute`` makes a cursor per statement, as plain apsw code does; with ``one_cursor`` every
        # statement runs on one kept cursor, as the store's reads do since session 14 (a lower floor, for comparison).
        self.run = self.conn.cursor().execute if one_cursor and not self.postgres else self.conn.execute

    def sql(self, sql: str) -> str:
        return sql.replace("?", "%s").replace("rowid", "seq") if self.postgres else sql

    def begin_read(self) -> None:
        self.run("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" if self.postgres else "BEGIN")

    def commit(self) -> None:
        self.run("COMMIT")

    def rows(self, sql: str, params: tuple) -> list[tuple]:
        return self.run(self.sql(sql), params).fetchall()

    def write(self, sql: str, params: tuple) -> None:
        self.conn.execute("BEGIN" if self.postgres else "BEGIN IMMEDIATE")
        self.conn.execute(self.sql(sql), params)
        self.conn.execute("COMMIT")

    def autocommit_statement(self, sql: str) -> None:
        self.conn.execute(sql)

    def close(self) -> None:
        self.conn.close()


def list_page(bare: BareConnection, where: str, params: tuple, limit: int = 50) -> str:
    """The floor of ``onto.task.list`` (``where`` as SQL over ``tasks``), as JSON text."""
    bare.begin_read()
    rows = bare.rows(f"SELECT {_SUMMARY_SQL} FROM tasks WHERE {where} ORDER BY {_ORDER} LIMIT ? OFFSET ?", (*params, limit, 0))
    if len(rows) < limit:
        total, exact = len(rows), True
    else:
        stop = max(COUNT_CAP, limit)
        total = bare.rows(f"SELECT count(*) FROM (SELECT 1 FROM tasks WHERE {where} LIMIT ?) AS matches", (*params, stop + 1))[0][0]
        exact = total <= stop
    bare.commit()
    page = [dict(zip(_SUMMARY_KEYS, values)) for values in rows]
    answer: dict[str, Any] = {"tasks": page, "total" if exact else "total_at_least": total, "limit": limit, "offset": 0, "has_more": len(rows) < total}
    return json.dumps(answer)


def get_task(bare: BareConnection, task_id: str) -> str:
    """The floor of ``onto.task.get``, as JSON text."""
    bare.begin_read()
    [values] = bare.rows(_TASK_SQL, (task_id,))
    links = bare.rows(_LINKS_SQL, (task_id,))
    documents = bare.rows(_DOCUMENTS_SQL.format(", ".join("?" * len(links))), tuple(link[0] for link in links)) if links else []
    edges = bare.rows(_EDGES_SQL, (task_id, task_id))
    bare.commit()
    task = dict(zip(TASK_COLUMNS, values))
    task["props"] = json.loads(task["props"])
    by_id = {row[0]: dict(zip(_DOCUMENT_KEYS, row)) for row in documents}
    linked = [{**by_id[document_id], "role": role} for document_id, role in links]
    touching = []
    for row in edges:
        edge = dict(zip(EDGE_COLUMNS, row))
        edge["props"] = json.loads(edge["props"])
        touching.append(edge)
    return json.dumps({"task": task, "documents": linked, "edges": touching})


def interleaved(sides: dict[str, Any], *, rounds: int, calls: int, warmup: int = 20, settle: dict[str, Any] | None = None) -> dict[str, dict[str, float]]:
    """Each side's cost per call, its rounds taking turns so that every side sees the same load.

    ``settle[name]`` runs at the end of each of that side's rounds, inside its
    CPU time (the call log's queue written out, so that the writer thread's
    work lands in the round of the calls that queued it).

    Returns, per side: ``cpu_us`` (the median over rounds of the process's CPU
    time per call: every thread, so a writer thread's work counts), ``wall_ms``
    (median of single calls) and ``p95_ms``.
    """
    import statistics
    import time

    for fn in sides.values():
        for _ in range(warmup):
            fn()
    cpu: dict[str, list[float]] = {name: [] for name in sides}
    wall: dict[str, list[float]] = {name: [] for name in sides}
    for _ in range(rounds):
        for name, fn in sides.items():
            started_cpu = time.process_time()
            for _ in range(calls):
                started = time.perf_counter()
                fn()
                wall[name].append((time.perf_counter() - started) * 1000)
            if settle and name in settle:
                settle[name]()
            cpu[name].append((time.process_time() - started_cpu) / calls * 1e6)
    figures = {}
    for name in sides:
        ordered = sorted(wall[name])
        figures[name] = {"cpu_us": statistics.median(cpu[name]), "wall_ms": statistics.median(ordered),
                         "p95_ms": ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]}
    return figures
