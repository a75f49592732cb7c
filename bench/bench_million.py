"""The store at 1,000,000 tasks on SQLite and PostgreSQL: list, get and create through gw.exec against bare SQL.

Run: python bench/bench_million.py [--entities 1000000] [--repeat 200] [--backends sqlite postgres]
     python bench/bench_million.py --entities 100000      # a smaller store, a few times faster to grow
     python bench/bench_million.py --calls create         # only some of the calls

Growing: 100 projects through the store, then the tasks (spread over the
projects, four states, five priorities, one second apart) with bare SQL,
``INSERT INTO tasks ... SELECT`` over a generated series (a recursive CTE
on SQLite, ``generate_series`` on PostgreSQL), 100,000 rows per
transaction, with every trigger on: the search index (FTS5, or the
tsvector table and its word list) is filled as the store would fill it.
Going through ``tx.insert`` row by row is the read-path work of issue 16
(``bench_bulk_insert.py``); here it would take far longer than the reads
we want to measure. PostgreSQL then gets ``VACUUM ANALYZE``, which
autovacuum would do by itself a little later.

Measured, each ``--repeat`` times (median and p95, ms, wall time):
- list: ``onto.task.list`` first page of 50, with no filter, and filtered
  by project and state;
- get: ``onto.task.get`` of a random task;
- create: ``onto.task.create`` (writes allowed, in its own transaction).
opgate is ``Gateway.exec`` on the store (call log off, as in
``bench_reads.py``). The floor is the same SQL on a bare connection
(apsw, psycopg): the page query and the capped count the store runs, in the
same kind of transaction, rows made dicts and the page ``json.dumps``-ed;
for create, one INSERT in its own transaction.
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

import apsw  # noqa: E402
from _table import measure, median, p95, print_table  # noqa: E402
from opgate.core import Gateway  # noqa: E402
from opgate.core.handlers._reads_entities import NEWEST_FIRST  # noqa: E402
from opgate.core.handlers._summaries import summary_fields  # noqa: E402
from opgate.core.store import COUNT_CAP, open_store  # noqa: E402
from opgate.core.store._kinds import KINDS  # noqa: E402
from opgate.core.store._sqlite_filters import order_clause  # noqa: E402

PROJECTS = 100
CHUNK = 100_000
PROJECT_ID = "b0000000-0000-4000-8000-{:012x}"
TASK_PREFIX = "c0000000-0000-4000-8000-"
PAGE = 50
EPOCH = 1_750_000_000

_TASK_COLUMNS = "id, project_id, title, description, type_key, state_key, priority, props, created_at, updated_at"
SQLITE_FILL = f"""
WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)
INSERT INTO tasks ({_TASK_COLUMNS})
SELECT '{TASK_PREFIX}' || printf('%012x', i), 'b0000000-0000-4000-8000-' || printf('%012x', i % {PROJECTS}),
       'Grown task ' || i || ' ' || (CASE i % 5 WHEN 0 THEN 'review' WHEN 1 THEN 'draft' WHEN 2 THEN 'ship' WHEN 3 THEN 'plan' ELSE 'test' END),
       'Work a busy team keeps in its tracker, number ' || i, 'task.generic',
       CASE (i / {PROJECTS}) % 4 WHEN 0 THEN 'todo' WHEN 1 THEN 'in_progress' WHEN 2 THEN 'blocked' ELSE 'done' END, 1 + i % 5, '{{}}',
       strftime('%Y-%m-%dT%H:%M:%SZ', {EPOCH} + i, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%SZ', {EPOCH} + i, 'unixepoch')
FROM n"""
POSTGRES_FILL = f"""
INSERT INTO tasks ({_TASK_COLUMNS})
SELECT '{TASK_PREFIX}' || lpad(to_hex(i), 12, '0'), 'b0000000-0000-4000-8000-' || lpad(to_hex(i % {PROJECTS}), 12, '0'),
       'Grown task ' || i || ' ' || (CASE i % 5 WHEN 0 THEN 'review' WHEN 1 THEN 'draft' WHEN 2 THEN 'ship' WHEN 3 THEN 'plan' ELSE 'test' END),
       'Work a busy team keeps in its tracker, number ' || i, 'task.generic',
       CASE (i / {PROJECTS}) % 4 WHEN 0 THEN 'todo' WHEN 1 THEN 'in_progress' WHEN 2 THEN 'blocked' ELSE 'done' END, 1 + i % 5, '{{}}',
       to_char(to_timestamp({EPOCH} + i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
       to_char(to_timestamp({EPOCH} + i) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
FROM generate_series(%s::bigint, %s::bigint) AS i""".replace(" % ", " %% ")  # psycopg: a bare % starts a placeholder


_created = itertools.count()


def new_title() -> str:
    """A title no other task has: the create handler looks for tasks with the same title, and a repeated one would always be found."""
    return f"Created while measuring {next(_created)}"


def task_id(i: int) -> str:
    return f"{TASK_PREFIX}{i:012x}"


def grow(location: str, entities: int) -> float:
    """Make the projects through the store and the tasks with INSERT ... SELECT; seconds taken."""
    started = time.perf_counter()
    store = open_store(location, demo=False)
    with store.write() as tx:
        for k in range(PROJECTS):
            tx.insert("project", {"id": PROJECT_ID.format(k), "name": f"Million project {k}"})
    store.close()
    postgres = is_postgres(location)
    conn = BareConnection(location)
    for low in range(0, entities, CHUNK):
        high = min(low + CHUNK, entities) - 1
        conn.write(POSTGRES_FILL if postgres else SQLITE_FILL, (low, high))
    if postgres:
        conn.autocommit_statement("VACUUM ANALYZE")
    conn.close()
    return time.perf_counter() - started


def is_postgres(location: str) -> bool:
    return location.startswith(("postgresql://", "postgres://"))


class BareConnection:
    """One connection with no opgate code in between: the floor's."""

    def __init__(self, location: str):
        self.postgres = is_postgres(location)
        if self.postgres:
            import psycopg

            self.conn = psycopg.connect(location, autocommit=True)
        else:
            self.conn = apsw.Connection(location)
            self.conn.execute("PRAGMA foreign_keys = ON")
            self.conn.execute("PRAGMA synchronous = NORMAL")

    def _sql(self, sql: str) -> str:
        return sql.replace("?", "%s") if self.postgres else sql

    def read(self, statements: list[tuple[str, tuple]]) -> list[tuple[list[str], list[tuple]]]:
        """Run SELECTs in one read transaction like the store's; each answer's column names and rows."""
        self.conn.execute("BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY" if self.postgres else "BEGIN")
        answers = []
        for sql, params in statements:
            cursor = self.conn.execute(self._sql(sql), params)
            if self.postgres:
                rows, names = cursor.fetchall(), [d[0] for d in cursor.description]
            else:
                try:
                    names = [d[0] for d in cursor.getdescription()]  # only while the statement runs
                except apsw.ExecutionCompleteError:  # no rows at all
                    names = []
                rows = cursor.fetchall()
            answers.append((names, rows))
        self.conn.execute("COMMIT")
        return answers

    def write(self, sql: str, params: tuple) -> None:
        self.conn.execute("BEGIN" if self.postgres else "BEGIN IMMEDIATE")
        self.conn.execute(sql, params)
        self.conn.execute("COMMIT")

    def autocommit_statement(self, sql: str) -> None:
        self.conn.execute(sql)

    def close(self) -> None:
        self.conn.close()


def floor_calls(location: str, entities: int, pick: random.Random) -> dict:
    """The bare-SQL version of each measured call."""
    bare = BareConnection(location)
    columns = ", ".join(["id", *summary_fields("task")])
    order = order_clause(KINDS["task"], NEWEST_FIRST)
    stop = max(COUNT_CAP, PAGE) + 1

    def page(where: str, params: tuple) -> None:
        (_, counted), (names, rows) = bare.read([
            (f"SELECT count(*) FROM (SELECT 1 FROM tasks WHERE {where} LIMIT ?) AS matches", (*params, stop)),
            (f"SELECT {columns} FROM tasks WHERE {where} ORDER BY {order} LIMIT ? OFFSET ?", (*params, PAGE, 0)),
        ])
        json.dumps({"tasks": [dict(zip(names, row)) for row in rows], "total": counted[0][0]})

    def get() -> None:
        [(names, rows)] = bare.read([(f"SELECT {', '.join(KINDS['task'].columns)} FROM tasks WHERE id = ?", (task_id(pick.randrange(entities)),))])
        json.dumps(dict(zip(names, rows[0])))

    def create() -> None:
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        bare.write("INSERT INTO tasks (id, project_id, title, state_key, type_key, priority, props, created_at, updated_at)"
                   " VALUES (?, ?, ?, 'todo', 'task.generic', 3, '{}', ?, ?)".replace("?", "%s" if bare.postgres else "?"),
                   (str(uuid.uuid4()), PROJECT_ID.format(pick.randrange(PROJECTS)), new_title(), now, now))

    project = PROJECT_ID.format(7)
    return {"list, no filter": lambda: page("1 = 1", ()), "list, project + state": lambda: page("project_id = ? AND state_key = ?", (project, "todo")),
            "get": get, "create": create, "_close": bare.close}


def exec_calls(location: str, entities: int, pick: random.Random) -> dict:
    store = open_store(location, demo=False)
    gateway = Gateway(store=store, allow_write=True, call_log=False)

    def checked(op: str, args: dict) -> None:
        answer = gateway.exec(op, args)
        if not answer["ok"]:
            raise RuntimeError(f"{op} failed: {answer['error']}")

    project = PROJECT_ID.format(7)
    return {
        "list, no filter": lambda: checked("onto.task.list", {"limit": PAGE}),
        "list, project + state": lambda: checked("onto.task.list", {"project_id": project, "state_key": "todo", "limit": PAGE}),
        "get": lambda: checked("onto.task.get", {"task_id": task_id(pick.randrange(entities))}),
        "create": lambda: checked("onto.task.create", {"project_id": PROJECT_ID.format(pick.randrange(PROJECTS)), "title": new_title()}),
        "_close": lambda: (gateway.close(), store.close()),
    }


CALLS = ("list, no filter", "list, project + state", "get", "create")


def run_backend(location: str, entities: int, repeat: int, calls: tuple[str, ...] = CALLS) -> tuple[float, dict[str, tuple[list[float], list[float]]]]:
    grown = grow(location, entities)
    ours, floor = exec_calls(location, entities, random.Random(1)), floor_calls(location, entities, random.Random(1))
    figures = {}
    try:
        for name in calls:
            # Alternate rounds so that both sides see the same machine load.
            mine, bare = [], []
            for _ in range(4):
                mine += measure(ours[name], repeat=repeat // 4, warmup=3)
                bare += measure(floor[name], repeat=repeat // 4, warmup=3)
            figures[name] = (mine, bare)
    finally:
        ours["_close"]()
        floor["_close"]()
    return grown, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=1_000_000, help="tasks to grow each store to")
    parser.add_argument("--repeat", type=int, default=200, help="timed calls per operation and side")
    parser.add_argument("--backends", nargs="+", choices=("sqlite", "postgres"), default=["sqlite", "postgres"])
    parser.add_argument("--url", help="an empty, migrated PostgreSQL database (default: a throwaway cluster)")
    parser.add_argument("--calls", nargs="+", choices=("list", "get", "create"), default=["list", "get", "create"],
                        help="which calls to measure (list is both lists)")
    options = parser.parse_args()
    calls = tuple(name for name in CALLS if name.split(",")[0] in options.calls)
    results = {}
    cluster = None
    try:
        with tempfile.TemporaryDirectory() as folder:
            for backend in options.backends:
                if backend == "sqlite":
                    location = str(Path(folder) / "million.db")
                else:
                    if options.url is None:
                        from pg_cluster import PgCluster

                        cluster = PgCluster()
                    location = options.url or cluster.new_database()
                results[backend] = run_backend(location, options.entities, options.repeat, calls)
                print(f"{backend}: grown to {options.entities:,} tasks in {results[backend][0]:.0f} s", flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
    rows = []
    for backend, (_, figures) in results.items():
        for name, (mine, bare) in figures.items():
            rows.append([backend, name, f"{median(mine):.3f}", f"{p95(mine):.3f}", f"{median(bare):.3f}", f"{p95(bare):.3f}",
                         f"{median(mine) / median(bare):.1f}x"])
    print_table(f"{options.entities:,} tasks over {PROJECTS} projects; {options.repeat} calls each side; ms, wall time",
                ["backend", "call", "gw.exec median", "p95", "bare SQL median", "p95", "ratio"], rows)


if __name__ == "__main__":
    main()
