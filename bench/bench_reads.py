"""A read through exec against its floor: the same SQL, the rows as dicts, and ``json.dumps`` of the page.

Run: python bench/bench_reads.py [--sizes 0 100000 1000000] [--calls 300]
For each size, one project holds the 50 tasks of the page plus ``size`` more
(so size 0 is the page alone). The 50 page tasks go in through
``tx.insert``, like any task; the others are written by one
``INSERT ... SELECT`` over a recursive CTE on the store's own schema, with
its indexes and search triggers live, so a million rows take a minute or
two instead of the store's per-row checks (bench_bulk_insert.py measures
those). Their times are older than the page's, so the newest 50 are the
page tasks.

Two reads at each size, each as CPU microseconds per call (best of 5 rounds):
- ``project``: ``onto.task.list`` of one project, 50 newest;
- ``all``: ``onto.task.list`` with no filter, 50 newest of every task.
Paths:
- floor: raw apsw, one read transaction, the SELECT the store runs (every
  column, newest first, ties by ``seq``), each row made a dict, the page
  passed to ``json.dumps``;
- store: ``tx.list`` of the same page, narrowed to the summary fields;
- exec: ``Gateway.exec("onto.task.list", ...)``, call log off, then on (the
  call log's writer thread runs in this process, so its CPU counts).
Goal (issue 16): exec within 2x of the floor at every size.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import apsw  # noqa: E402
from _table import print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.handlers._summaries import summary_fields  # noqa: E402
from opgate.core.store import open_store  # noqa: E402
from opgate.core.store._kinds import KINDS  # noqa: E402

try:
    from opgate.core.store._sqlite_conn import CACHE_KIB
except ImportError:  # an opgate from before the 64 MiB page cache, measured for a before/after
    CACHE_KIB = 64 * 1024

PAGE = 50
GOAL = 2.0
_UUID = ("lower(hex(randomblob(4))) || '-' || lower(hex(randomblob(2))) || '-4' || substr(lower(hex(randomblob(2))), 2)"
         " || '-' || substr('89ab', 1 + abs(random()) % 4, 1) || substr(lower(hex(randomblob(2))), 2) || '-' || lower(hex(randomblob(6)))")
_BULK = f"""
WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
INSERT INTO tasks (id, project_id, title, type_key, state_key, priority, props, created_at, updated_at)
SELECT {_UUID}, ?, 'Older task ' || i, 'task.generic', 'todo', 1 + i % 5,
       json_object('n', i, 'note', 'xxxxxxxxxxxxxxxxxxxx'),
       strftime('%Y-%m-%dT%H:%M:%SZ', 1700000000 - i, 'unixepoch'),
       strftime('%Y-%m-%dT%H:%M:%SZ', 1700000000 - i, 'unixepoch')
FROM n
"""


def cpu_us(fn, calls: int) -> float:
    for _ in range(max(10, calls // 10)):
        fn()
    best = float("inf")
    for _ in range(5):
        started = time.process_time()
        for _ in range(calls):
            fn()
        best = min(best, (time.process_time() - started) / calls * 1e6)
    return best


def build(db: Path, size: int) -> tuple[str, float]:
    """A workspace whose one project holds ``size`` older tasks and the page; returns the project and the build seconds."""
    started = time.perf_counter()
    store = open_store(db, demo=False)
    with store.write() as tx:
        project = tx.insert("project", {"name": "Reads"})["id"]
    store.close()
    if size:
        conn = apsw.Connection(str(db))
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(_BULK, (size, project))
        conn.execute("COMMIT")
        conn.close()
    store = open_store(db, demo=False)
    with store.write() as tx:
        for n in range(PAGE):
            tx.insert("task", {"project_id": project, "title": f"Task {n}", "props": {"n": n, "note": "x" * 20}})
    store.close()
    return project, time.perf_counter() - started


def measure_size(db: Path, project: str, calls: int) -> list[list[str]]:
    columns = KINDS["task"].columns
    raw = apsw.Connection(str(db))
    raw.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # as the store's connections
    store = open_store(db, demo=False)
    quiet, logging = Gateway(store=store, call_log=False), Gateway(store=store)
    rows = []
    for case, args, where, params in (
        ("project", {"project_id": project, "limit": PAGE}, "WHERE project_id = ?", (project,)),
        ("all", {"limit": PAGE}, "", ()),
    ):
        sql = f"SELECT {', '.join(columns)} FROM tasks {where} ORDER BY updated_at DESC, seq DESC LIMIT {PAGE} OFFSET 0"

        def floor() -> None:
            raw.execute("BEGIN")
            page = [dict(zip(columns, values)) for values in raw.execute(sql, params).fetchall()]
            raw.execute("COMMIT")
            json.dumps({"tasks": page})

        def store_read() -> None:
            with store.read() as tx:
                tx.list("task", args.get("project_id") and {"project_id": project}, limit=PAGE, order="-updated_at", fields=summary_fields("task"))

        assert quiet.exec("onto.task.list", args)["ok"]
        figures = [cpu_us(floor, calls), cpu_us(store_read, calls),
                   cpu_us(lambda: quiet.exec("onto.task.list", args), calls),
                   cpu_us(lambda: logging.exec("onto.task.list", args), calls)]
        rows.append([case, *(f"{us:.0f}" for us in figures), f"{figures[2] / figures[0]:.2f}x", f"{figures[3] / figures[0]:.2f}x"])
    logging.close()
    store.close()
    raw.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 100_000, 1_000_000])
    parser.add_argument("--calls", type=int, default=300)
    options = parser.parse_args()
    table, builds = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for size in options.sizes:
            db = Path(tmp) / f"reads-{size}.db"
            project, seconds = build(db, size)
            builds.append(f"{size:,} older tasks: built in {seconds:.0f} s")
            table += [[f"{size:,}", *row] for row in measure_size(db, project, options.calls)]
    print_table(
        f"onto.task.list, a page of {PAGE} newest tasks (CPU us per call, best of 5)",
        ["older tasks", "list", "floor", "store", "exec", "exec + log", "exec / floor", "exec + log / floor"], table,
    )
    print("\n" + "; ".join(builds))
    worst = max(float(row[7].rstrip("x")) for row in table)
    print(f"goal: exec within {GOAL:g}x of the floor at every size ({'met' if worst <= GOAL else 'NOT met'}: worst {worst:.2f}x with the call log on)")


if __name__ == "__main__":
    main()
