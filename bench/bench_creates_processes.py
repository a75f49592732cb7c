"""Creates from several processes at once: opgate against raw apsw doing the same inserts.

Run: python bench/bench_creates_processes.py [--processes 4] [--creates 300]
Each of the processes makes ``--creates`` tasks in one shared workspace, one
call at a time, all starting together:
- opgate: ``Gateway.exec("onto.task.create", ...)`` with writes allowed and
  the call log on (validation, the handler's checks, the write transaction,
  the envelope, the log entry);
- floor: an apsw connection set up like the store's (WAL, busy timeout,
  synchronous NORMAL, 64 MiB page cache) doing ``BEGIN IMMEDIATE; INSERT INTO tasks ...; COMMIT``
  per task on the same schema (its search triggers included).
Throughput is all creates over the wall time from the common start to the
last process's end; the worst call is the slowest single create anywhere.
Goal: opgate at least 50% of the floor's throughput, worst call under 0.3 s.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import median, p95, print_table  # noqa: E402

PROJECT = "10000000-0000-4000-8000-000000000001"
GOAL_THROUGHPUT = 0.5
GOAL_WORST_S = 0.3


def opgate_worker(db: str, creates: int, start_at: float) -> list[float]:
    from opgate.core import Gateway

    gateway = Gateway(db_path=db, allow_write=True)
    gateway.exec("onto.project.get", {"project_id": PROJECT})  # open and warm up before the start
    times = _timed(creates, start_at, lambda n: gateway.exec("onto.task.create", {"project_id": PROJECT, "title": f"Bench {n}"})["ok"])
    gateway.close()
    return times


def raw_worker(db: str, creates: int, start_at: float) -> list[float]:
    import apsw

    conn = apsw.Connection(db)
    conn.set_busy_timeout(5000)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA synchronous = NORMAL")
    conn.execute("PRAGMA cache_size = -65536")  # the store's CACHE_KIB

    def insert(n: int) -> bool:
        now = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        conn.execute("BEGIN IMMEDIATE")
        conn.execute(
            "INSERT INTO tasks (id, project_id, title, state_key, type_key, priority, props, created_at, updated_at)"
            " VALUES (?, ?, ?, 'todo', 'task.generic', 3, '{}', ?, ?)",
            (str(uuid.uuid4()), PROJECT, f"Bench {n}", now, now),
        )
        conn.execute("COMMIT")
        return True

    times = _timed(creates, start_at, insert)
    conn.close()
    return times


def _timed(creates: int, start_at: float, call) -> list[float]:
    time.sleep(max(0.0, start_at - time.time()))
    times = []
    for n in range(creates):
        started = time.perf_counter()
        if not call(n):
            raise RuntimeError("a create failed")
        times.append(time.perf_counter() - started)
    return times


def run_side(side: str, db: Path, processes: int, creates: int) -> tuple[float, list[float]]:
    start_at = time.time() + 2.0  # every worker imported and connected by then
    workers = [
        subprocess.Popen([sys.executable, __file__, "--worker", side, str(db), str(creates), str(start_at)], stdout=subprocess.PIPE, text=True)
        for _ in range(processes)
    ]
    outputs = [worker.communicate(timeout=600)[0] for worker in workers]
    if any(worker.returncode for worker in workers):
        raise RuntimeError(f"a {side} worker failed")
    ended = max(json.loads(out)["ended"] for out in outputs)
    times = [t for out in outputs for t in json.loads(out)["times"]]
    return processes * creates / (ended - start_at), times


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--creates", type=int, default=300)
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        side, db, creates, start_at = options.worker
        work = opgate_worker if side == "opgate" else raw_worker
        times = work(db, int(creates), float(start_at))
        print(json.dumps({"times": times, "ended": time.time()}))
        return
    from opgate.core.store import open_store

    rows, results = [], {}
    with tempfile.TemporaryDirectory() as tmp:
        for side in ("opgate", "raw apsw"):
            db = Path(tmp) / f"{side.replace(' ', '_')}.db"
            open_store(db).close()  # the demo workspace, so PROJECT exists for both
            results[side] = run_side(side, db, options.processes, options.creates)
    for side, (throughput, times) in results.items():
        ms = [t * 1000 for t in times]
        rows.append([side, f"{throughput:.0f}", f"{median(ms):.2f}", f"{p95(ms):.2f}", f"{max(ms):.1f}"])
    ours, floor = results["opgate"], results["raw apsw"]
    ratio = ours[0] / floor[0]
    rows.append(["opgate / raw", f"{ratio:.0%}", "", "", f"{max(ours[1]) / max(floor[1]):.1f}x"])
    print_table(
        f"{options.processes} processes x {options.creates} creates, one shared workspace",
        ["side", "creates/s", "median ms", "p95 ms", "worst ms"], rows,
    )
    worst = max(ours[1])
    print(f"\ngoal: >= {GOAL_THROUGHPUT:.0%} of raw throughput ({'met' if ratio >= GOAL_THROUGHPUT else 'NOT met'}: {ratio:.0%}); "
          f"worst call < {GOAL_WORST_S} s ({'met' if worst < GOAL_WORST_S else 'NOT met'}: {worst:.3f} s)")


if __name__ == "__main__":
    main()
