"""Instructions per ``onto.task.get``: the floor, exec, and exec with the call log, counted by callgrind.

Run: python bench/bench_get_instructions.py [--calls 1000] [--warm-up 300] [--sides exec queued log]
(needs ``valgrind``; about a minute). CPU time on a shared machine moves by
tens of percent between runs (docs/performance.md); instructions do not, so
a cut of 1 k instructions shows here when no timing can show it.

Each side runs in its own process under ``valgrind --tool=callgrind``, on
a workspace of one project and 50 tasks, one task read ``--calls`` times
after ``--warm-up`` uncounted reads. Only the measured loop is collected:
it runs inside ``functools.reduce``, and callgrind toggles collection on
entering and leaving that C function (``--toggle-collect``), so start-up,
imports and the warm-up count nothing. Sides:

- floor: ``_read_floor.get_task`` (the least program, raw apsw);
- floor, one cursor: the same with every statement on one kept cursor, as
  the store's reads run since session 14 (apsw's ``conn.execute`` makes a
  cursor per statement, about 3 k instructions each); printed beside, so
  that what that cut is worth against each floor is plain;
- exec: ``Gateway.exec`` with the call log off;
- exec, log queued: the log on, its entries queued and never written inside
  the loop (the call's own share of the log);
- exec + log: the log on, its queue written by the measuring thread every
  100 gets, as ``bench_reads.py`` settles each round of 100 (the writer
  thread is never left to write: callgrind counts only the thread that
  toggled collection).

Every side moves by a few hundred instructions between runs. (Until session
13 the writer thread took its settings before the bench changed them, wrote
part of the loop's entries itself, and "exec + log" moved by some 20 k.)
"""

from __future__ import annotations

import argparse
import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).parent
SIDES = ("floor", "floor_kept", "exec", "queued", "log")
LABELS = {"floor": "floor", "floor_kept": "floor, one cursor", "exec": "exec", "queued": "exec, log queued", "log": "exec + log"}
FLUSH_EVERY = 100


def measure(side: str, calls: int, warm_up: int) -> None:
    """The measured process: build, warm up, then the loop inside ``functools.reduce``."""
    sys.path.insert(0, str(HERE))
    from _read_floor import BareConnection, fifty_task_workspace, get_task

    from opgate.core import Gateway
    from opgate.core._record import replace
    from opgate.core.settings import GatewaySettings
    from opgate.core.store import open_store

    db = fifty_task_workspace("get.db")
    store = open_store(db, demo=False)
    # The writer thread must never write inside the loop: it takes its settings when it starts (at the first
    # entry), so they are given to the gateway here. Given after the warm-up instead, they never reached it, and
    # it wrote a third to a half of the loop's entries on its own 0.25 s window: the main thread then wrote
    # less but paid for the other connection's commits (its page cache dropped, the interpreter's lock handed
    # over), which moved "exec + log" by some 20 k between runs.
    logging = side in ("queued", "log")
    settings = replace(GatewaySettings(), call_log_flush_s=1e9, call_log_flush_entries=10**9) if logging else None
    gateway = Gateway(store=store, call_log=logging, settings=settings)
    task_id = gateway.exec("onto.task.list", {"limit": 1})["result"]["tasks"][0]["id"]
    args = {"task_id": task_id}
    answer = gateway.exec("onto.task.get", args)
    assert answer["ok"], answer
    if side in ("floor", "floor_kept"):
        bare = BareConnection(str(db), one_cursor=side == "floor_kept")

        def call() -> object:
            return get_task(bare, task_id)
    else:
        def call() -> object:
            return gateway.exec("onto.task.get", args)
    for _ in range(warm_up):
        call()
    log = gateway._call_log
    if log.enabled:
        log.flush()

    def step(_: object, n: int) -> None:
        call()
        if side == "log" and n % FLUSH_EVERY == FLUSH_EVERY - 1:
            log.flush()

    functools.reduce(step, range(calls), None)
    gateway.close()


def count(side: str, calls: int, warm_up: int) -> float:
    """Instructions per get of ``side``, from a callgrind run of this script."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind", "--tool=callgrind", "--toggle-collect=functools_reduce", f"--callgrind-out-file={tmp}/out",
            sys.executable, __file__, "--side", side, "--calls", str(calls), "--warm-up", str(warm_up),
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said nothing of {side}:\n{done.stderr[-2000:]}")
    return int(found.group(1)) / calls


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--warm-up", type=int, default=300)
    parser.add_argument("--sides", nargs="+", choices=SIDES[1:], default=SIDES[1:], help="which sides beside the floor (default: all)")
    parser.add_argument("--side", choices=SIDES, help=argparse.SUPPRESS)  # the measured process
    options = parser.parse_args()
    if options.side:
        measure(options.side, options.calls, options.warm_up)
        return
    sides = ("floor", *options.sides)
    figures = {side: count(side, options.calls, options.warm_up) for side in sides}
    floor = figures["floor"]
    print(f"onto.task.get, instructions per call (callgrind, {options.calls:,} gets after {options.warm_up:,}, only the loop collected)")
    for side in sides:
        print(f"  {LABELS[side]:<17} {figures[side] / 1000:7.1f} k  {figures[side] / floor:.2f}x")
    if "floor_kept" in figures and "log" in figures:
        # The store's reads keep one cursor (session 14); the floor is plain apsw, a cursor per statement.
        # Against a floor that keeps one too, the goal reads differently, and both are printed.
        print(f"  exec + log against the floor with one cursor: {figures['log'] / figures['floor_kept']:.2f}x")


if __name__ == "__main__":
    main()
