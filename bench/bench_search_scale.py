"""Search as the catalogue grows: build, cached load, memory per op and latency, from 1,447 to 100,000 ops.

Run: python bench/bench_search_scale.py [--sizes 1447 10000 100000] [--cache-dir DIR]
The catalogues are Twilio's real operations copied under renamed products
(``bench/_scaled_catalog.py``). For each size: the index built from the
registry, then read back from the cache in a fresh gateway (memory measured
with tracemalloc over that read: what the index holds), then
``gw.search(query, limit=10)`` over the 20 Twilio requests of
``bench_search.py``, 5 times each (all 100 calls: median and p95), and the
first call of each request on its own ("new"): the index keeps the top of
each ranker for recent queries, so a repeated query costs less than a new
one. The floor beside them is the full walk (every matching op scored, the
way the index ranks under 20,000 ops), timed on the same index in the same
run. Where numpy is installed, the pruned top is found from dense sums
(``core/search/_dense.py``); a second row then times the same calls on
another gateway read from the cache with that switched off (block bounds,
what an install without numpy runs). Latencies are CPU time of the process (``time.process_time``): on a
shared machine, wall time mostly measures the wait for a core. The growth
column is the exponent of median latency against size from the previous
row (1.0: linear). Goals: median under 5 ms and p95 under
15 ms at 100,000 ops, under 4 KB per op.
"""

from __future__ import annotations

import argparse
import math
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _scaled_catalog import scaled_catalog  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from bench_search import TWILIO_QUERIES  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.search._dense import numpy_module  # noqa: E402
from opgate.core.search._top import PRUNE_FROM_OPS  # noqa: E402


def measure_size(size: int, folder: Path, cache_dir: Path) -> dict[str, float]:
    import os

    os.environ["OPGATE_CACHE_DIR"] = str(cache_dir)
    spec = [f"twilio={scaled_catalog(size, folder)}"]
    gateway = Gateway.from_catalogs(spec, call_log=False)
    list(gateway.registry)  # records decoded: the build below times the index alone
    start = time.perf_counter()
    built = gateway.search_index
    build = time.perf_counter() - start
    del built, gateway
    fresh = Gateway.from_catalogs(spec, call_log=False)
    list(fresh.registry)
    tracemalloc.start()
    start = time.perf_counter()
    fresh.search_index  # noqa: B018  (read from the cache)
    load = time.perf_counter() - start
    held, _ = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    latencies, first = _timed_requests(fresh)
    index = fresh.search_index
    index.prune_from_ops = 10**12  # the full walk, as under 20,000 ops
    walk = []
    for query in TWILIO_QUERIES:
        start = time.process_time()
        fresh.search(query, limit=10)
        walk.append((time.process_time() - start) * 1000)
    index.prune_from_ops = PRUNE_FROM_OPS
    figures = {"build": build, "load": load, "bytes": held / size, "median": median(latencies), "p95": p95(latencies), "new": median(first), "new_p95": p95(first), "walk": median(walk)}
    del index, fresh
    if size >= PRUNE_FROM_OPS and numpy_module() is not None:
        # The same calls with block bounds only, on a gateway with nothing remembered yet.
        blocks = Gateway.from_catalogs(spec, call_log=False)
        list(blocks.registry)
        blocks.search_index.dense_sums = False
        latencies, first = _timed_requests(blocks)
        figures["blocks"] = {"median": median(latencies), "p95": p95(latencies), "new": median(first), "new_p95": p95(first)}
    return figures


def _timed_requests(gateway: Gateway) -> tuple[list[float], list[float]]:
    """CPU ms of each of the 100 calls (the 20 requests, 5 times each, after a warm-up), and of each request's first call."""
    latencies = []
    first = []
    gateway.search("warm up", limit=10)
    for query in TWILIO_QUERIES:
        for repeat in range(5):
            start = time.process_time()
            gateway.search(query, limit=10)
            latencies.append((time.process_time() - start) * 1000)
            if repeat == 0:
                first.append(latencies[-1])
    return latencies, first


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1447, 10_000, 100_000])
    parser.add_argument("--cache-dir", type=Path, default=None, help="reuse a cache folder between runs (default: a temp folder)")
    options = parser.parse_args()
    rows = []
    previous: tuple[int, float] | None = None
    with tempfile.TemporaryDirectory() as tmp:
        cache_dir = options.cache_dir or Path(tmp) / "cache"
        for size in options.sizes:
            figures = measure_size(size, Path(tmp), cache_dir)
            growth = "-" if previous is None else f"{math.log(figures['median'] / previous[1]) / math.log(size / previous[0]):.2f}"
            top = "full walk" if size < PRUNE_FROM_OPS else "dense sums" if "blocks" in figures else "block bounds"
            rows.append([
                f"{size:,}", top, f"{figures['build']:.1f}", f"{figures['load']:.2f}", f"{figures['build'] / figures['load']:.0f}x", f"{figures['bytes']:,.0f}",
                f"{figures['median']:.1f}", f"{figures['p95']:.1f}", f"{figures['new']:.1f} / {figures['new_p95']:.1f}", f"{figures['walk']:.1f}", f"{figures['walk'] / figures['median']:.1f}x", growth,
            ])
            if "blocks" in figures:
                other = figures["blocks"]
                rows.append([
                    f"{size:,}", "block bounds", "-", "-", "-", "-",
                    f"{other['median']:.1f}", f"{other['p95']:.1f}", f"{other['new']:.1f} / {other['new_p95']:.1f}", f"{figures['walk']:.1f}", f"{figures['walk'] / other['median']:.1f}x", "-",
                ])
            previous = (size, figures["median"])
            print(f"  ... {size:,} ops done", file=sys.stderr)
    print_table(
        "Search at scale (index build and cached load in s; memory held by the index in bytes per op; gw.search CPU time in ms)",
        ["ops", "top found by", "build s", "load s", "build/load", "bytes/op", "median ms", "p95 ms", "new: median / p95 ms", "full walk ms", "walk/median", "growth"],
        rows,
    )
    print("goals at 100,000 ops: median < 5 ms, p95 < 15 ms, < 4,096 bytes per op, growth <= 1.0")


if __name__ == "__main__":
    main()
