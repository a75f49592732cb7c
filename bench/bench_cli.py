"""What a command line costs: CPU time of ``opgate help``, ``search`` and ``exec`` against ``python -c pass``.

Run: python bench/bench_cli.py [--runs 7]
Each command runs ``--runs`` times in a fresh interpreter (user + system CPU
of the child, the best run kept: CPU time, unlike wall time, barely moves
with the load of a shared machine). The floor is the interpreter starting and
doing nothing. Goal: each command within 4x the floor.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import print_table  # noqa: E402

GOAL = 4.0
COMMANDS = {
    "opgate help": ["help"],
    "opgate search 'create a task'": ["search", "create a task"],
    "opgate exec onto.task.list": ["exec", "onto.task.list"],
}


def cpu_ms(command: list[str], env: dict[str, str], runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        best = min(best, used * 1000)
    return best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, XDG_DATA_HOME=tmp)
        opgate = [sys.executable, "-m", "opgate"]
        subprocess.run([*opgate, "help"], stdout=subprocess.DEVNULL, env=env, check=True)  # the demo workspace, made once
        floor = cpu_ms([sys.executable, "-c", "pass"], env, options.runs)
        rows = [["python -c pass (floor)", f"{floor:.0f}", "1.0x", ""]]
        for label, words in COMMANDS.items():
            used = cpu_ms([*opgate, *words], env, options.runs)
            rows.append([label, f"{used:.0f}", f"{used / floor:.1f}x", "yes" if used / floor <= GOAL else "no"])
    print_table(f"CPU time of one command line (ms, best of {options.runs})", ["command", "cpu ms", "vs floor", f"within {GOAL:g}x"], rows)


if __name__ == "__main__":
    main()
