"""The store at 1,000,000 tasks on SQLite and PostgreSQL: list, get and create through gw.exec against bare SQL.

Run: python bench/bench_million.py [--entities 1000000] [--rounds 8] [--calls 25] [--backends sqlite postgres]
     python bench/bench_million.py --entities 100000      # a smaller store, a few times faster to grow
     python bench/bench_million.py --only create          # only some of the calls

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

Measured in rounds that take turns (``--rounds`` of ``--calls`` calls per
side), as the process's CPU time per call (median of the rounds) and wall
time per call (median and p95, ms):
- list: ``onto.task.list`` first page of 50, with no filter, and filtered
  by project and state;
- get: ``onto.task.get`` of a random task;
- create: ``onto.task.create`` (writes allowed, in its own transaction).
opgate is ``Gateway.exec`` on the store, call log off (as in
``bench_reads.py``'s first exec column) and, for the reads, on (the
default; each of its rounds ends by writing the log's queue, so that the
writes count in the round that made them). The floor of a read is
``_read_floor.py``'s, the same one ``bench_reads.py`` uses: the columns the
answer shows, the capped count when the page is full, dicts and
``json.dumps``; a get reads the row, the linked documents and the edges.
For create, one INSERT in its own transaction. On PostgreSQL most of a
read's work is in the server process, so its wall time is the figure to
read there; on SQLite, the CPU time.
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

from _read_floor import BareConnection, get_task, interleaved, is_postgres, list_page  # noqa: E402
from _table import print_table  # noqa: E402
from opgate.core import Gateway  # noqa: E402
from opgate.core.store import open_store  # noqa: E402

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


def floor_calls(location: str, entities: int, pick: random.Random) -> dict:
    """The bare-SQL version of each measured call."""
    bare = BareConnection(location)

    def create() -> None:
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        bare.write("INSERT INTO tasks (id, project_id, title, state_key, type_key, priority, props, created_at, updated_at)"
                   " VALUES (?, ?, ?, 'todo', 'task.generic', 3, '{}', ?, ?)",
                   (str(uuid.uuid4()), PROJECT_ID.format(pick.randrange(PROJECTS)), new_title(), now, now))

    project = PROJECT_ID.format(7)
    return {"list, no filter": lambda: list_page(bare, "TRUE", (), PAGE),
            "list, project + state": lambda: list_page(bare, "project_id = ? AND state_key = ?", (project, "todo"), PAGE),
            "get": lambda: get_task(bare, task_id(pick.randrange(entities))), "create": create, "_close": bare.close}


def exec_calls(location: str, entities: int, pick: random.Random, *, call_log: bool = False) -> dict:
    store = open_store(location, demo=False)
    gateway = Gateway(store=store, allow_write=True, call_log=call_log)

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
        "_flush": gateway._call_log.flush,
    }


def check_same_answers(location: str) -> None:
    """The floor must give exec's very answer, or the ratio means nothing."""
    store = open_store(location, demo=False)
    gateway, bare = Gateway(store=store, call_log=False), BareConnection(location)
    try:
        project = PROJECT_ID.format(7)
        for args, where, params in (({"limit": PAGE}, "TRUE", ()),
                                    ({"project_id": project, "state_key": "todo", "limit": PAGE}, "project_id = ? AND state_key = ?", (project, "todo"))):
            assert json.loads(list_page(bare, where, params, PAGE)) == gateway.exec("onto.task.list", args)["result"], args
        assert json.loads(get_task(bare, task_id(0))) == gateway.exec("onto.task.get", {"task_id": task_id(0)})["result"]
    finally:
        gateway.close()
        store.close()
        bare.close()


CALLS = ("list, no filter", "list, project + state", "get", "create")


def run_backend(location: str, entities: int, rounds: int, calls: int, only: tuple[str, ...] = CALLS) -> tuple[float, dict[str, dict[str, dict[str, float]]]]:
    grown = grow(location, entities)
    ours, floor = exec_calls(location, entities, random.Random(1)), floor_calls(location, entities, random.Random(1))
    # The default configuration logs every call: reads are measured that way too (a create writes anyway).
    logged = exec_calls(location, entities, random.Random(1), call_log=True)
    check_same_answers(location)
    figures = {}
    try:
        for name in only:
            sides = {"exec": ours[name], "floor": floor[name]}
            if name != "create":
                sides["exec + log"] = logged[name]
            figures[name] = interleaved(sides, rounds=rounds, calls=calls, warmup=3, settle={"exec + log": logged["_flush"]})
    finally:
        ours["_close"]()
        logged["_close"]()
        floor["_close"]()
    return grown, figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=1_000_000, help="tasks to grow each store to")
    parser.add_argument("--rounds", type=int, default=8, help="rounds per operation and side, taking turns")
    parser.add_argument("--calls", type=int, default=25, help="calls per round")
    parser.add_argument("--backends", nargs="+", choices=("sqlite", "postgres"), default=["sqlite", "postgres"])
    parser.add_argument("--url", help="an empty, migrated PostgreSQL database (default: a throwaway cluster)")
    parser.add_argument("--only", nargs="+", choices=("list", "get", "create"), default=["list", "get", "create"],
                        help="which calls to measure (list is both lists)")
    options = parser.parse_args()
    only = tuple(name for name in CALLS if name.split(",")[0] in options.only)
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
                results[backend] = run_backend(location, options.entities, options.rounds, options.calls, only)
                print(f"{backend}: grown to {options.entities:,} tasks in {results[backend][0]:.0f} s", flush=True)
    finally:
        if cluster is not None:
            cluster.stop()
    rows = []
    for backend, (_, figures) in results.items():
        for name, sides in figures.items():
            mine, bare = sides["exec"], sides["floor"]
            logged = sides.get("exec + log")
            rows.append([backend, name, f"{mine['cpu_us']:.0f}", f"{bare['cpu_us']:.0f}", f"{mine['cpu_us'] / bare['cpu_us']:.2f}x",
                         f"{logged['cpu_us'] / bare['cpu_us']:.2f}x" if logged else "-",
                         f"{mine['wall_ms']:.3f}", f"{mine['p95_ms']:.3f}", f"{bare['wall_ms']:.3f}", f"{bare['p95_ms']:.3f}",
                         f"{mine['wall_ms'] / bare['wall_ms']:.1f}x", f"{logged['wall_ms'] / bare['wall_ms']:.1f}x" if logged else "-"])
    print_table(f"{options.entities:,} tasks over {PROJECTS} projects; {options.rounds} rounds of {options.calls} calls each side",
                ["backend", "call", "exec CPU us", "floor CPU us", "CPU ratio", "+ log", "exec wall ms", "p95", "floor wall ms", "p95",
                 "wall ratio", "+ log"], rows)


if __name__ == "__main__":
    main()
