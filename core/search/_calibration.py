"""From a raw confidence to a calibrated one: a hit at 0.8 is right about 80% of the time.

The raw confidence (see :mod:`._index`) ranks hits well but says "how sure"
only roughly. ``calibration.json`` holds a monotone map from raw to
calibrated values, fitted by isotonic regression on the tuning sets only
(the built-in requests' tuning part and the MetaTool dev split) with
``bench/fit_calibration.py``; between its points the map is linear.
"""

from __future__ import annotations

import bisect
import json
from functools import lru_cache
from pathlib import Path


class Calibration:
    """A monotone piecewise-linear map on [0, 1]."""

    def __init__(self, points: list[tuple[float, float]]):
        points = sorted(points)
        if not points or points[0][0] > 0.0:
            points.insert(0, (0.0, points[0][1] if points else 0.0))
        if points[-1][0] < 1.0:
            points.append((1.0, points[-1][1]))
        self.xs = [x for x, _ in points]
        self.ys = [y for _, y in points]

    def __call__(self, raw: float) -> float:
        raw = min(1.0, max(0.0, raw))
        i = bisect.bisect_right(self.xs, raw)
        if i >= len(self.xs):
            return self.ys[-1]
        x0, x1, y0, y1 = self.xs[i - 1], self.xs[i], self.ys[i - 1], self.ys[i]
        return y0 if x1 == x0 else y0 + (y1 - y0) * (raw - x0) / (x1 - x0)


IDENTITY = Calibration([(0.0, 0.0), (1.0, 1.0)])


@lru_cache(maxsize=1)
def default_calibration() -> Calibration:
    path = Path(__file__).with_name("calibration.json")
    if not path.is_file():
        return IDENTITY
    return Calibration([tuple(p) for p in json.loads(path.read_text(encoding="utf-8"))["points"]])
