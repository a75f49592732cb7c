"""Creates from several processes at once: opgate against raw apsw doing the same inserts.

Run: python bench/bench_creates_processes.py [--processes 4] [--creates 300] [--rounds 5] [--compare PYTHON] [--patient-floor]
(``--compare`` adds a side "opgate (compared)": the same opgate workers run by
another interpreter, say the venv of a checkout of main before a change.
``--patient-floor`` adds a side "raw apsw, patient": the floor waiting for the
lock with the store's busy handler instead of SQLite's busy timeout.)
Each of the processes makes ``--creates`` tasks in one shared workspace, one
call at a time, all starting together. The creates are cut into ``--rounds``
slices and the two sides take turns, slice by slice, so that both see the
same load from other jobs on a shared machine:
- opgate: ``Gateway.exec("onto.task.create", ...)`` with writes allowed and
  the call log on (validation, the handler's checks, the write transaction,
  the envelope, the log entry);
- floor: an apsw connection set up like the store's (WAL, busy timeout,
  synchronous NORMAL, 64 MiB page cache) doing ``BEGIN IMMEDIATE; INSERT INTO tasks ...; COMMIT``
  per task on the same schema (its search triggers included).
Throughput is all creates over the summed wall time of the slices (each from
the common start to the last process's end); the worst call is the slowest
single create anywhere. CPU is the workers' own CPU time (every thread) per
create, which moves less than wall time when the machine is busy. Pages read
is SQLite's page-cache misses per create over the worker's connections (each
one a read from the database file or its WAL): in WAL mode a connection drops
its whole page cache whenever another one has committed since its last
transaction.
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
PATIENT_FLOOR = "raw apsw, patient"
CPU_AT_START = 0.0
PAGES_READ = 0
_CONNECTIONS: list = []  # every apsw connection a worker opens, for its cache misses


def _count_connections() -> None:
    import apsw

    apsw.connection_hooks.append(_CONNECTIONS.append)


def _pages_read() -> dict[int, int]:
    """Page-cache misses so far, by connection; a closed connection or one busy in another thread is left out."""
    import apsw

    misses = {}
    for conn in _CONNECTIONS:
        try:
            misses[id(conn)] = conn.status(apsw.SQLITE_DBSTATUS_CACHE_MISS)[0]
        except apsw.Error:
            pass
    return misses


def opgate_worker(db: str, creates: int, tag: str) -> list[float]:
    from opgate.core import Gateway

    gateway = Gateway(db_path=db, allow_write=True)
    gateway.exec("onto.project.get", {"project_id": PROJECT})  # open and warm up before the start
    # A dry-run create (it writes nothing) loads the write path's modules before the start: without
    # cached bytecode, compiling them made a worker's first create the slowest call of the run.
    gateway.exec("onto.task.create", {"project_id": PROJECT, "title": f"Warm-up {tag}"}, dry_run=True)
    times = _timed(creates, lambda n: gateway.exec("onto.task.create", {"project_id": PROJECT, "title": f"Bench {tag}-{n}"})["ok"])
    gateway.close()
    return times


def raw_worker(db: str, creates: int, tag: str, patient: bool = False) -> list[float]:
    import apsw

    conn = apsw.Connection(db)
    if patient:
        from opgate.core.store._sqlite_conn import patient as patient_handler

        conn.set_busy_handler(patient_handler(5000))
    else:
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
            (str(uuid.uuid4()), PROJECT, f"Bench {tag}-{n}", now, now),
        )
        conn.execute("COMMIT")
        return True

    times = _timed(creates, insert)
    conn.close()
    return times


def _timed(creates: int, call) -> list[float]:
    # Ready (imported, connected, warmed up), then wait for the common start: a fixed delay
    # was not enough under load, where importing opgate without cached bytecode took over
    # 2 s, and the late start was counted as the slice's time.
    print("ready", flush=True)
    start_at = float(sys.stdin.readline())
    time.sleep(max(0.0, start_at - time.time()))
    global CPU_AT_START
    CPU_AT_START = time.process_time()  # the import and warm-up before the start are not a create's
    pages_at_start = _pages_read()
    times = []
    for n in range(creates):
        started = time.perf_counter()
        if not call(n):
            raise RuntimeError("a create failed")
        times.append(time.perf_counter() - started)
    global PAGES_READ
    PAGES_READ = sum(n - pages_at_start.get(conn, 0) for conn, n in _pages_read().items())
    return times


def run_slice(side: str, db: Path, processes: int, creates: int, first: int, python: str) -> tuple[float, list[float], float, int]:
    """(wall seconds, every call's time, CPU seconds of the workers, pages they read) of one slice."""
    workers = [
        subprocess.Popen([python, __file__, "--worker", side, str(db), str(creates), f"{first}-{n}"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for n in range(processes)
    ]
    for worker in workers:
        if worker.stdout.readline().strip() != "ready":
            raise RuntimeError(f"a {side} worker failed before the start")
    start_at = time.time() + 0.05  # every worker is waiting on its stdin for this
    for worker in workers:
        worker.stdin.write(f"{start_at!r}\n")
        worker.stdin.close()
    outputs = [json.loads(worker.stdout.read() or "{}") for worker in workers]
    for worker in workers:
        worker.wait(timeout=600)
    if any(worker.returncode for worker in workers):
        raise RuntimeError(f"a {side} worker failed")
    ended = max(out["ended"] for out in outputs)
    cpu, pages = sum(out["cpu"] for out in outputs), sum(out["pages"] for out in outputs)
    return ended - start_at, [t for out in outputs for t in out["times"]], cpu, pages


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int, default=4)
    parser.add_argument("--creates", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--compare", metavar="PYTHON", help="also run the opgate workers with this interpreter")
    parser.add_argument("--patient-floor", action="store_true", help="also run the floor with the store's busy handler")
    parser.add_argument("--worker", nargs=4, help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.worker:
        side, db, creates, tag = options.worker
        _count_connections()
        if side.startswith("raw apsw"):
            times = raw_worker(db, int(creates), tag, patient=side == PATIENT_FLOOR)
        else:
            times = opgate_worker(db, int(creates), tag)
        print(json.dumps({"times": times, "ended": time.time(), "cpu": time.process_time() - CPU_AT_START, "pages": PAGES_READ}))
        return
    pythons = {"opgate": sys.executable, "raw apsw": sys.executable}
    if options.compare:
        pythons["opgate (compared)"] = options.compare
    if options.patient_floor:
        pythons[PATIENT_FLOOR] = sys.executable
    sides = tuple(pythons)
    totals = {side: [0.0, [], 0.0, 0] for side in sides}
    per_slice = options.creates // options.rounds
    with tempfile.TemporaryDirectory() as tmp:
        dbs = {side: Path(tmp) / f"{side.replace(' ', '_').replace(',', '')}.db" for side in sides}
        for side, db in dbs.items():
            # The demo workspace, so PROJECT exists for every side, made by the side's own opgate (its schema).
            subprocess.run([pythons[side], "-c", f"from opgate.core.store import open_store; open_store({str(db)!r}).close()"], check=True)
        for round_ in range(options.rounds):
            for side in sides if round_ % 2 == 0 else sides[::-1]:
                wall, times, cpu, pages = run_slice(side, dbs[side], options.processes, per_slice, round_, pythons[side])
                totals[side][0] += wall
                totals[side][1] += times
                totals[side][2] += cpu
                totals[side][3] += pages
    results = {side: (len(times) / wall, times, cpu / len(times), pages / len(times)) for side, (wall, times, cpu, pages) in totals.items()}
    rows = []
    for side, (throughput, times, cpu, pages) in results.items():
        ms = [t * 1000 for t in times]
        rows.append([side, f"{throughput:.0f}", f"{median(ms):.2f}", f"{p95(ms):.2f}", f"{max(ms):.1f}", f"{cpu * 1000:.2f}", f"{pages:.1f}"])
    ours, floor = results["opgate"], results["raw apsw"]
    ratio = ours[0] / floor[0]
    for side, (throughput, times, cpu, pages) in results.items():
        if side != "raw apsw":  # every other side against the floor as the issue measured it
            rows.append([f"{side} / raw", f"{throughput / floor[0]:.0%}", "", "", f"{max(times) / max(floor[1]):.1f}x", f"{cpu / floor[2]:.1f}x", ""])
    print_table(
        f"{options.processes} processes x {per_slice * options.rounds} creates in {options.rounds} slices per side, taking turns, one shared workspace",
        ["side", "creates/s", "median ms", "p95 ms", "worst ms", "CPU ms/create", "pages read/create"], rows,
    )
    worst = max(ours[1])
    print(f"\ngoal: >= {GOAL_THROUGHPUT:.0%} of raw throughput ({'met' if ratio >= GOAL_THROUGHPUT else 'NOT met'}: {ratio:.0%}); "
          f"worst call < {GOAL_WORST_S} s ({'met' if worst < GOAL_WORST_S else 'NOT met'}: {worst:.3f} s)")


if __name__ == "__main__":
    main()
