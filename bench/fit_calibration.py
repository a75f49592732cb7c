"""Fits ``core/search/calibration.json``: raw confidence -> how often a pointer at it is right.

Run: python bench/fit_calibration.py
Tuning sets only: the built-in requests' tuning part and the MetaTool dev
split (never the held-back part, the MetaTool held-out split or ToolLens).
Every pointer of the top five counts, right or wrong; pool-adjacent-violators
isotonic regression makes the map monotone, so the ranking never changes,
only what its confidences say.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _search_data import metatool_dev, own_sets  # noqa: E402

from opgate.core.search._calibration import IDENTITY  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "core" / "search" / "calibration.json"
POINTS = 24


def samples() -> list[tuple[float, int]]:
    found = []
    for query_set in [own_sets()[0], metatool_dev()]:
        gateway = query_set.gateway()
        gateway.search_index.calibration = IDENTITY
        for query in query_set.queries:
            for hit in gateway.search(query.text, limit=5).get("results", []):
                right = any(hit["op"] in slot or hit["tool_name"] in slot for slot in query.slots)
                found.append((hit["confidence"], int(right)))
        gateway.close()
    return found


def isotonic(pairs: list[tuple[float, int]]) -> list[tuple[float, float]]:
    """(raw, calibrated) per block of pooled samples, increasing."""
    blocks: list[list[float]] = []  # [sum, count, first raw, last raw]
    for raw, right in sorted(pairs):
        blocks.append([float(right), 1.0, raw, raw])
        while len(blocks) > 1 and blocks[-2][0] / blocks[-2][1] >= blocks[-1][0] / blocks[-1][1]:
            last = blocks.pop()
            blocks[-1][0] += last[0]
            blocks[-1][1] += last[1]
            blocks[-1][3] = last[3]
    return [((b[2] + b[3]) / 2, b[0] / b[1]) for b in blocks]


def main() -> None:
    pairs = samples()
    curve = isotonic(pairs)
    step = max(1, len(curve) // POINTS)
    points = curve[::step] + ([curve[-1]] if curve[-1] not in curve[::step] else [])
    points = [(round(x, 4), round(y, 4)) for x, y in points]
    OUT.write_text(json.dumps({"about": __doc__.split("\n")[0] + " Fitted on " + f"{len(pairs)} pointers.", "points": points}, indent=1) + "\n", encoding="utf-8")
    print(f"{len(pairs)} pointers, {len(curve)} blocks, {len(points)} points -> {OUT}")
    for x, y in points:
        print(f"  raw {x:.3f} -> {y:.3f}")


if __name__ == "__main__":
    main()
