"""A read through exec against its floor: the same SQL, the rows as dicts, and ``json.dumps`` of the answer.

Run: python bench/bench_reads.py [--sizes 0 100000 1000000] [--rounds 7] [--calls 100]
For each size, one project holds the 50 tasks of the page plus ``size`` more
(so size 0 is the page alone). The 50 page tasks go in through
``tx.insert``, like any task; the others are written by one
``INSERT ... SELECT`` over a recursive CTE on the store's own schema, with
its indexes and search triggers live, so a million rows take a minute or
two instead of the store's per-row checks (bench_bulk_insert.py measures
those). Their times are older than the page's, so the newest 50 are the
page tasks.

Three reads at each size:
- ``project``: ``onto.task.list`` of one project, 50 newest;
- ``all``: ``onto.task.list`` with no filter, 50 newest of every task;
- ``get``: ``onto.task.get`` of a task of the page.
Paths, their rounds taking turns (CPU microseconds per call, median of the
rounds; the process's CPU, so the call log's writer thread counts):
- floor: raw apsw, what ``_read_floor.py`` says the least program does (the
  page query over the columns the answer shows, the capped count when the
  page is full, dicts, ``json.dumps``; for a get, the row, the linked
  documents and the edges);
- exec: ``Gateway.exec``, call log off, then on (each round ends by writing
  the log's queue, so that its writes count in the round that made them).
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
from _read_floor import BareConnection, get_task, interleaved, list_page  # noqa: E402
from _table import print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.store import open_store  # noqa: E402

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


def measure_size(db: Path, project: str, rounds: int, calls: int) -> list[list[str]]:
    bare = BareConnection(str(db))
    store = open_store(db, demo=False)
    quiet, logging = Gateway(store=store, call_log=False), Gateway(store=store)
    task_id = quiet.exec("onto.task.list", {"project_id": project, "limit": 1})["result"]["tasks"][0]["id"]
    rows = []
    for case, op, args, floor in (
        ("project", "onto.task.list", {"project_id": project, "limit": PAGE}, lambda: list_page(bare, "project_id = ?", (project,), PAGE)),
        ("all", "onto.task.list", {"limit": PAGE}, lambda: list_page(bare, "TRUE", (), PAGE)),
        ("get", "onto.task.get", {"task_id": task_id}, lambda: get_task(bare, task_id)),
    ):
        answer = quiet.exec(op, args)
        assert answer["ok"], answer
        assert json.loads(floor()) == answer["result"], f"the floor of {case} does not give exec's answer"
        figures = interleaved(
            {"floor": floor, "exec": lambda: quiet.exec(op, args), "exec + log": lambda: logging.exec(op, args)},
            rounds=rounds, calls=calls, settle={"exec + log": logging._call_log.flush},
        )
        floor_us, exec_us, logged_us = (figures[side]["cpu_us"] for side in ("floor", "exec", "exec + log"))
        rows.append([case, f"{floor_us:.0f}", f"{exec_us:.0f}", f"{logged_us:.0f}", f"{exec_us / floor_us:.2f}x", f"{logged_us / floor_us:.2f}x"])
    logging.close()
    store.close()
    bare.close()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 100_000, 1_000_000])
    parser.add_argument("--rounds", type=int, default=7, help="rounds per path, taking turns")
    parser.add_argument("--calls", type=int, default=100, help="calls per round")
    options = parser.parse_args()
    table, builds = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for size in options.sizes:
            db = Path(tmp) / f"reads-{size}.db"
            project, seconds = build(db, size)
            builds.append(f"{size:,} older tasks: built in {seconds:.0f} s")
            table += [[f"{size:,}", *row] for row in measure_size(db, project, options.rounds, options.calls)]
    print_table(
        f"onto.task.list (a page of {PAGE} newest tasks) and onto.task.get; CPU us per call, median of {options.rounds} rounds of {options.calls}",
        ["older tasks", "read", "floor", "exec", "exec + log", "exec / floor", "exec + log / floor"], table,
    )
    print("\n" + "; ".join(builds))
    worst = max(float(row[6].rstrip("x")) for row in table)
    print(f"goal: exec within {GOAL:g}x of the floor at every size ({'met' if worst <= GOAL else 'NOT met'}: worst {worst:.2f}x with the call log on)")


if __name__ == "__main__":
    main()
