"""What embedding each op's head (name, name and summary) costs a semantic search, at Twilio's 1,447 ops.

Run: python bench/bench_heads.py

Two gateways over the same catalogue, the semantic ranker in both: one as
it loads by default (Twilio's ops carry no search phrases, so each op is
also embedded as its two head parts, see ``EMBED_HEADS``), one with whole
texts only (the floor). Searches run interleaved, one op at a time, and
are timed in CPU time (``time.process_time``) as well as wall time, so that
other work on the machine weighs on both alike. Prints the medians and the
ratio to the floor, for a repeated request (its embedding cached) and for a
new one (embedded first).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _search_data import TWILIO  # noqa: E402
from bench_search import TWILIO_QUERIES  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.search._semantic import SemanticRanker  # noqa: E402

ROUNDS = 20


def _timed(call) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    call()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def main() -> None:
    heads = Gateway.from_catalogs([f"twilio={TWILIO}"], search="semantic", call_log=False)
    floor = Gateway.from_catalogs([f"twilio={TWILIO}"], search="semantic", call_log=False)
    index = floor.search_index
    index.semantic = SemanticRanker.load(index.records, heads=False)
    assert heads.search_index.semantic._parts is not None and index.semantic._parts is None
    for gateway in (heads, floor):
        gateway.search("warm up", limit=10)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {}
    for round_ in range(ROUNDS):
        for query in TWILIO_QUERIES:
            for name, gateway in (("heads", heads), ("floor", floor)):
                times.setdefault((name, "repeated"), []).append(_timed(lambda g=gateway, q=query: g.search(q, limit=10)))
                fresh = f"{query} {round_}"
                times.setdefault((name, "new"), []).append(_timed(lambda g=gateway, q=fresh: g.search(q, limit=10)))
    print(f"gw.search() on Twilio ({len(index.records)} ops), semantic ranker, {ROUNDS} x {len(TWILIO_QUERIES)} queries, load average {os.getloadavg()[0]:.1f}")
    print(f"{'request':10} {'with heads (wall / CPU ms)':>28} {'floor: whole texts only':>26} {'ratio (CPU)':>12}")
    for kind in ("repeated", "new"):
        cells = []
        for name in ("heads", "floor"):
            walls, cpus = zip(*times[(name, kind)])
            cells.append((statistics.median(walls), statistics.median(cpus)))
        print(f"{kind:10} {cells[0][0]:>16.2f} / {cells[0][1]:.2f} {cells[1][0]:>17.2f} / {cells[1][1]:.2f} {cells[0][1] / cells[1][1]:>11.2f}x")
    heads.close()
    floor.close()


if __name__ == "__main__":
    main()
