"""``opgate help`` over a big catalogue: cold (no cache), warm (registry cache), against reading the catalogue.

Run: python bench/bench_registry_cache.py [--sizes 1447 50000] [--runs 3]
Each figure is a fresh ``python -m opgate --catalog ... help`` process, wall
time and CPU time (user + system), the best of ``--runs``. The catalogues are
Twilio's 1,447 real operations copied under renamed products
(``bench/_scaled_catalog.py``), written to a temp folder.

Floors, in fresh processes too: ``python -c pass``, and the least any
uncached command could do: ``json.load`` of the catalogue plus a metaschema
check of every tool's schema (jsonschema-rs). Goal: warm under 0.5 s at
50,000 ops, and well under the floor.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _scaled_catalog import scaled_catalog  # noqa: E402
from _table import print_table  # noqa: E402

FLOOR = """
import json, sys
from jsonschema_rs import meta
tools = json.load(open(sys.argv[1]))["tools"]
assert all(meta.is_valid(t["parameters"]) for t in tools)
"""


def run(command: list[str], env: dict[str, str]) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env, check=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def best(command: list[str], env: dict[str, str], runs: int, before=None) -> tuple[float, float]:
    results = []
    for _ in range(runs):
        if before is not None:
            before()
        results.append(run(command, env))
    return min(w for w, _ in results), min(c for _, c in results)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1447, 50_000])
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        cache = folder / "cache"
        env = dict(os.environ, XDG_DATA_HOME=str(folder / "data"), OPGATE_CACHE_DIR=str(cache))
        python = [sys.executable]
        subprocess.run([*python, "-m", "opgate", "help"], stdout=subprocess.DEVNULL, env=env, check=True)  # the demo workspace, made once
        nothing = best([*python, "-c", "pass"], env, options.runs)
        rows.append(["-", "python -c pass", f"{nothing[0]:.2f}", f"{nothing[1]:.2f}", "-"])
        for size in options.sizes:
            catalog = scaled_catalog(size, folder)
            help_command = [*python, "-m", "opgate", "--catalog", f"twilio={catalog}", "help"]
            floor = best([*python, "-c", FLOOR, str(catalog)], env, options.runs)

            def clear() -> None:
                for path in (cache / "registry").glob("*"):
                    path.unlink()

            cold = best(help_command, env, 1 if size > 10_000 else options.runs, before=clear)
            run(help_command, env)  # writes the cache
            warm = best(help_command, env, options.runs)
            label = f"{size:,}"
            rows.append([label, "floor: json.load + metaschema check", f"{floor[0]:.2f}", f"{floor[1]:.2f}", "1.0x"])
            rows.append([label, "opgate help, no cache", f"{cold[0]:.2f}", f"{cold[1]:.2f}", f"{cold[1] / floor[1]:.1f}x"])
            rows.append([label, "opgate help, cached", f"{warm[0]:.2f}", f"{warm[1]:.2f}", f"{warm[1] / floor[1]:.2f}x"])
    print_table(f"opgate help over a catalogue, fresh process (s, best of {options.runs}; ratio of CPU to the floor)", ["ops", "what", "wall s", "cpu s", "cpu vs floor"], rows)


if __name__ == "__main__":
    main()
