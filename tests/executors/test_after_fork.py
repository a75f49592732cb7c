"""What a process keeps for every call (the trace ids drawn ahead, the watchdog thread) starts afresh in a forked child."""

from __future__ import annotations

import os
import threading
import time

from opgate.core.exec._envelope import new_trace_id
from opgate.core.executors._watchdog import WATCHDOG, cancel


def _in_child(work) -> str:
    """Run ``work`` in a forked child and return the text it printed to the pipe."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: report, then leave without running the parent's exit hooks
        try:
            os.write(write_end, work().encode())
        finally:
            os._exit(0)
    os.close(write_end)
    chunks = []
    while chunk := os.read(read_end, 65536):
        chunks.append(chunk)
    os.close(read_end)
    os.waitpid(pid, 0)
    return b"".join(chunks).decode()


def test_a_child_draws_its_own_trace_ids():
    new_trace_id()  # the parent has ids drawn ahead now
    theirs = _in_child(lambda: " ".join(new_trace_id() for _ in range(10))).split()
    ours = [new_trace_id() for _ in range(200)]
    assert len(theirs) == 10 and not set(theirs) & set(ours)
    assert all(len(trace) == 19 and trace.startswith("tr_") and int(trace[3:], 16) >= 0 for trace in theirs + ours)
    assert len(set(ours)) == len(ours)


def test_the_watchdog_fires_in_a_child_whose_parent_started_it():
    cancel(WATCHDOG.watch(time.monotonic() + 60, lambda: None))  # the parent's thread is running

    def child() -> str:
        fired = threading.Event()
        WATCHDOG.watch(time.monotonic() + 0.05, fired.set)
        return "fired" if fired.wait(5) else "never fired"

    assert _in_child(child) == "fired"
