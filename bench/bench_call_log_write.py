"""Instructions per call-log entry of the log's write, part by part, counted by callgrind.

Run: python bench/bench_call_log_write.py [flush completed log_calls]
(needs ``valgrind``; under a minute a part). ``bench_get_instructions.py``
counts a whole get with the log; this script counts where the write's share
goes. Each part runs in its own process on a workspace of one project and 50
tasks: 300 gets of one task to warm up, then 10 rounds of 100 gets run
uncollected, each followed by one part collected (inside ``functools.reduce``,
which callgrind's ``--toggle-collect`` turns collection on and off around):

- flush: ``CallLog.flush()`` of the round's 100 entries, whole;
- completed: ``CallLog._completed`` (the stored rows made from the queued entries);
- log_calls: the store's ``log_calls`` of those rows (the rows, the
  transaction, the INSERT).

The writer thread never writes (its window and batch are made endless), so
the 100 gets between two parts run on the same thread's connection, as a
flush from a request thread does.
"""

from __future__ import annotations

import functools
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

PARTS = ("flush", "completed", "log_calls")
ROUNDS, PER_ROUND = 10, 100


def measure(part: str) -> None:
    """The measured process: build, warm up, then each round's gets and its collected part."""
    sys.path.insert(0, str(Path(__file__).parent))
    from _read_floor import fifty_task_workspace

    from opgate.core import Gateway
    from opgate.core._record import replace
    from opgate.core.settings import GatewaySettings
    from opgate.core.store import open_store

    db = fifty_task_workspace("log.db")
    store = open_store(db, demo=False)
    settings = replace(GatewaySettings(), call_log_flush_s=1e9, call_log_flush_entries=10**9)
    gateway = Gateway(store=store, call_log=True, settings=settings)
    task_id = gateway.exec("onto.task.list", {"limit": 1})["result"]["tasks"][0]["id"]
    args = {"task_id": task_id}
    log = gateway._call_log
    for _ in range(300):
        gateway.exec("onto.task.get", args)
    log.flush()
    for _ in range(ROUNDS):
        for _ in range(PER_ROUND):
            gateway.exec("onto.task.get", args)
        if part == "flush":
            functools.reduce(lambda _, __: log.flush(), [None], None)
            continue
        with log._wake:
            batch, log._pending = log._pending, []
        if part == "completed":
            rows = functools.reduce(lambda _, __: log._completed(batch), [None], None)
            log._write(rows)
        else:
            rows = log._completed(batch)
            functools.reduce(lambda _, __: log._store().log_calls(rows), [None], None)
    gateway.close()


def count(part: str) -> float:
    """Instructions per entry of ``part``, from a callgrind run of this script."""
    with tempfile.TemporaryDirectory() as tmp:
        command = [
            "valgrind", "--tool=callgrind", "--toggle-collect=functools_reduce", f"--callgrind-out-file={tmp}/out",
            sys.executable, __file__, "--part", part,
        ]
        done = subprocess.run(command, capture_output=True, text=True, env=os.environ, check=True)
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"callgrind said nothing of {part}:\n{done.stderr[-2000:]}")
    return int(found.group(1)) / (ROUNDS * PER_ROUND)


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--part":
        measure(sys.argv[2])
        return
    parts = sys.argv[1:] or list(PARTS)
    unknown = [part for part in parts if part not in PARTS]
    if unknown:
        raise SystemExit(f"unknown part {unknown[0]!r}: choose from {', '.join(PARTS)}")
    print(f"the call log's write, instructions per entry (callgrind, {ROUNDS} rounds of {PER_ROUND} gets, only the part collected)")
    for part in parts:
        print(f"  {part:<10} {count(part) / 1000:6.2f} k")


if __name__ == "__main__":
    main()
