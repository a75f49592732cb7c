"""What a command line costs: CPU time of ``opgate help``, ``search`` and ``exec`` against ``python -c pass``.

Run: python bench/bench_cli.py [--runs 7]
Each command runs ``--runs`` times in a fresh interpreter (user + system CPU
of the child, the best run kept: CPU time moves less than wall time with the
load of a shared machine, though a heavily loaded one still inflates the
bigger workloads more than the floor). The floor is the interpreter starting
and doing nothing. Goal: each command within 4x the floor.

The workspace and the registry cache live in a temp folder; the first,
unmeasured ``help`` makes the workspace and caches the built-in catalogue's
registry, and the first ``search`` its index, so the figures are the warm
steady state of a person's machine.
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
        env = dict(os.environ, XDG_DATA_HOME=tmp, XDG_CACHE_HOME=tmp)
        env.pop("OPGATE_CACHE_DIR", None)
        # A person's Python writes bytecode: without it every module is compiled again in each run.
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        opgate = [sys.executable, "-m", "opgate"]
        for words in COMMANDS.values():  # the demo workspace and the cache, made once
            subprocess.run([*opgate, *words], stdout=subprocess.DEVNULL, env=env, check=True)
        floor = cpu_ms([sys.executable, "-c", "pass"], env, options.runs)
        rows = [["python -c pass (floor)", f"{floor:.0f}", "1.0x", ""]]
        for label, words in COMMANDS.items():
            used = cpu_ms([*opgate, *words], env, options.runs)
            rows.append([label, f"{used:.0f}", f"{used / floor:.1f}x", "yes" if used / floor <= GOAL else "no"])
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print_table(f"CPU time of one command line (ms, best of {options.runs}; load average {load})", ["command", "cpu ms", "vs floor", f"within {GOAL:g}x"], rows)


if __name__ == "__main__":
    main()
