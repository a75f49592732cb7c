"""The per-row work of a read: onto.task.list against raw apsw fetching the same page.

Run: python bench/bench_reads.py [--tasks 5000] [--calls 500]
One project holds ``--tasks`` tasks (with a small ``props`` object each).
Rows, all CPU time in microseconds per call (best of 5 rounds):
- floor: raw apsw, one read transaction, the same SELECT (50 newest rows) and fetchall;
- store: ``tx.list`` of the same page narrowed to the summary fields, plus ``tx.state_digest()``;
- exec: ``Gateway.exec("onto.task.list", {"project_id": ..., "limit": 50})``, call log off.
The store row is what a handler pays beyond SQLite for reading; it used to
hash every row as JSON and decode every ``props`` only to drop it. The floor
runs the SQL the store runs (ties broken by ``seq`` in the sort's direction,
which lets SQLite stop after one page of the index).
"""

from __future__ import annotations

import argparse
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


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tasks", type=int, default=5000)
    parser.add_argument("--calls", type=int, default=500)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "reads.db"
        store = open_store(db, demo=False)
        with store.write() as tx:
            project = tx.insert("project", {"name": "Reads"})["id"]
            for n in range(options.tasks):
                tx.insert("task", {"project_id": project, "title": f"Task {n}", "props": {"n": n, "note": "x" * 20}})
        columns = ", ".join(KINDS["task"].columns)
        raw = apsw.Connection(str(db))

        def floor() -> None:
            raw.execute("BEGIN")
            raw.execute(f"SELECT {columns} FROM tasks WHERE project_id = ? ORDER BY updated_at DESC, seq DESC LIMIT 50", (project,)).fetchall()
            raw.execute("COMMIT")

        def store_read() -> None:
            with store.read() as tx:
                tx.list("task", {"project_id": project}, limit=50, order="-updated_at", fields=summary_fields("task"))
                tx.state_digest()

        gateway = Gateway(store=store, call_log=False)

        def exec_read() -> None:
            gateway.exec("onto.task.list", {"project_id": project, "limit": 50})

        figures = {"floor: raw apsw SELECT + fetchall": cpu_us(floor, options.calls),
                   "store: tx.list (summary fields) + state_digest": cpu_us(store_read, options.calls),
                   "exec onto.task.list (limit 50)": cpu_us(exec_read, options.calls)}
        base = figures["floor: raw apsw SELECT + fetchall"]
        rows = [[label, f"{us:.0f}", f"{us / base:.1f}x"] for label, us in figures.items()]
        print_table(f"one page of 50 tasks out of {options.tasks:,} (CPU us per call, best of 5)", ["path", "us", "vs floor"], rows)
        raw.close()
        store.close()


if __name__ == "__main__":
    main()
