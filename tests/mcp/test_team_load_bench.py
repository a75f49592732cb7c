"""bench/bench_team_load.py in a tiny configuration, so that it cannot rot.

Real ``opgate serve --http`` processes (1 and 2 on one PostgreSQL database of
the test cluster, 1 on an SQLite copy) take the bench's raw JSON-RPC load.
Only correctness is asserted, never a time: every write answered ok is one
row and no row is unanswered, every call reaches the call log, and one
idempotency key sent at once to both processes writes exactly once.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[2] / "bench" / "bench_team_load.py"
READS, WRITES, SAME_KEY = 50, 50, 50


def test_load_bench_loses_and_duplicates_nothing(pg_cluster, tmp_path):
    out = tmp_path / "load.json"
    command = [sys.executable, str(BENCH), "--url", pg_cluster.new_database(), "--processes", "1", "2",
               "--reads", str(READS), "--writes", str(WRITES), "--tasks", "100", "--concurrency", "8",
               "--idempotent-calls", str(SAME_KEY), "--json", str(out)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = json.loads(out.read_text())

    assert [(run["backend"], run["processes"]) for run in figures["runs"]] == [("PostgreSQL", 1), ("PostgreSQL", 2), ("SQLite", 1)]
    for run in figures["runs"]:
        assert run["reads"]["ok"] == run["reads"]["requests"] == READS, run
        assert run["writes"]["ok"] == run["writes"]["requests"] == WRITES, run
        assert run["rows_written"] == WRITES, run
        assert run["calls_logged"] == run["calls_sent"], run

    burst = figures["idempotency"]
    assert burst["processes"] == 2
    assert (burst["rows"], burst["keys"], burst["first_answers"]) == (1, 1, 1), burst
    assert burst["ok"] == burst["first_answers"] + burst["replays"] == SAME_KEY, burst
    assert burst["distinct_results"] == 1, burst
    assert "exactly one write: yes" in done.stdout
