"""What a command line costs: CPU time of ``opgate help``, ``search`` and ``exec`` against ``python -c pass``.

Run: python bench/bench_cli.py [--runs 7] [--compare OTHER_VENV/bin/python]
Each command runs once per round, ``--runs`` rounds, in a fresh interpreter
(user + system CPU of the child, the best run kept: CPU time moves less than
wall time with the load of a shared machine, though a heavily loaded one
still inflates the bigger workloads more than the floor). The floor is the
interpreter starting and doing nothing, measured in the same rounds; so is
``--compare``'s opgate (another checkout's venv), with its own floor. Goal:
each command within 4x the floor. Measure in a venv holding only
``pip install -e .``: extras add start-up work to the floor.

The workspace and the registry cache live in a temp folder; the first,
unmeasured ``help`` makes the workspace and caches the built-in catalogue's
registry, and the first ``search`` its index, so the figures are the warm
steady state of a person's machine.
"""

from __future__ import annotations

import argparse
import os
import re
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
    "opgate help onto.task": ["help", "onto.task"],
    "opgate help onto.task.list": ["help", "onto.task.list"],
    "opgate search 'mark task done'": ["search", "mark task done"],
    "opgate exec onto.task.list": ["exec", "onto.task.list"],
}


def cpu_ms(command: list[str], env: dict[str, str]) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True, cwd=env["BENCH_CWD"])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def instructions(command: list[str], env: dict[str, str]) -> int:
    """Instructions the command executes (valgrind's callgrind): the same on a busy machine as on an idle one."""
    result = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", *command], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env, check=True, cwd=env["BENCH_CWD"],
    )
    return int(re.search(r"Collected : (\d+)", result.stderr).group(1))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--compare", metavar="PYTHON", help="another interpreter with an opgate installed (say, main's venv), measured in the same rounds")
    parser.add_argument("--instructions", action="store_true", help="also count instructions under valgrind (slow; unmoved by load)")
    options = parser.parse_args()
    pythons = {"": sys.executable, **({"compared: ": options.compare} if options.compare else {})}
    with tempfile.TemporaryDirectory() as tmp:
        envs = {}
        for name, python in pythons.items():
            home = Path(tmp) / (name.strip(": ") or "this")
            # Commands run in an empty folder: ``-m opgate`` from a checkout would import that checkout's opgate/
            # (and from the data folder its opgate/ workspace folder), and no opgate.toml is read.
            env = dict(os.environ, XDG_DATA_HOME=str(home), XDG_CACHE_HOME=str(home), BENCH_CWD=str(Path(tmp) / "cwd"))
            env.pop("OPGATE_CACHE_DIR", None)
            # A person's Python writes bytecode: without it every module is compiled again in each run.
            env.pop("PYTHONDONTWRITEBYTECODE", None)
            envs[name] = env
            Path(env["BENCH_CWD"]).mkdir(exist_ok=True)
            for words in COMMANDS.values():  # the demo workspace and the cache, made once
                subprocess.run([python, "-m", "opgate", *words], stdout=subprocess.DEVNULL, env=env, check=True, cwd=env["BENCH_CWD"])
        # Rounds: each round runs every command once, so load from elsewhere falls on all of them alike.
        best: dict[tuple[str, str], float] = {}
        for _ in range(options.runs):
            for name, python in pythons.items():
                runs = {"python -c pass (floor)": [python, "-c", "pass"], **{label: [python, "-m", "opgate", *words] for label, words in COMMANDS.items()}}
                for label, command in runs.items():
                    best[name, label] = min(best.get((name, label), float("inf")), cpu_ms(command, envs[name]))
        counted = {}
        if options.instructions:
            for name, python in pythons.items():
                counted[name, "python -c pass (floor)"] = instructions([python, "-c", "pass"], envs[name])
                for label, words in COMMANDS.items():
                    counted[name, label] = instructions([python, "-m", "opgate", *words], envs[name])
    rows = []
    for name in pythons:
        floor = best[name, "python -c pass (floor)"]
        rows.append([f"{name}python -c pass (floor)", f"{floor:.0f}", "1.0x", ""])
        for label in COMMANDS:
            used = best[name, label]
            rows.append([f"{name}{label}", f"{used:.0f}", f"{used / floor:.1f}x", "yes" if used / floor <= GOAL else "no"])
    load = ", ".join(f"{value:.1f}" for value in os.getloadavg())
    print_table(f"CPU time of one command line (ms, best of {options.runs} rounds; load average {load})", ["command", "cpu ms", "vs floor", f"within {GOAL:g}x"], rows)
    if counted:
        rows = [
            [f"{name}{label}", f"{counted[name, label] / 1e6:.0f}", f"{counted[name, label] / counted[name, 'python -c pass (floor)']:.2f}x"]
            for name in pythons for label in ["python -c pass (floor)", *COMMANDS]
        ]
        print_table("Instructions executed (millions, valgrind callgrind)", ["command", "instructions", "vs floor"], rows)


if __name__ == "__main__":
    main()
