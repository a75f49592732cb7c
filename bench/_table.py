"""Timing helpers and a plain table printer shared by the benchmarks."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def measure(fn: Callable[[], object], *, repeat: int, warmup: int = 1) -> list[float]:
    """Wall times in milliseconds of ``repeat`` calls, after ``warmup`` unmeasured ones."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return times


def median(times: list[float]) -> float:
    return statistics.median(times)


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


def print_table(title: str, headers: list[str], rows: list[list[object]]) -> None:
    cells = [[str(c) for c in row] for row in rows]
    widths = [max([len(h), *(len(r[i]) for r in cells)]) for i, h in enumerate(headers)]
    print(f"\n{title}")
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.rjust(w) if c.replace(".", "").replace(",", "").isdigit() else c.ljust(w) for c, w in zip(row, widths)))
