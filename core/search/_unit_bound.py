"""The most a query can get from unit-vector posting lists (the trigram lane's), given each list's cap.

A document's gram weights form a unit vector, so its lists' weights cannot
all reach their caps at once; this bound (water-filling) is what lets
:class:`._pruned.ScoredLists` stop reading gram lists early.
"""

from __future__ import annotations

import math
from collections.abc import Sequence


def unit_most(coefficients: Sequence[float], caps: Sequence[float]) -> float:
    """The largest ``sum(c * x)`` over ``0 <= x <= cap`` with ``sum(x * x) <= 1``: each ``x = min(cap, t * c)`` for one ``t``."""
    if sum(cap * cap for cap in caps) <= 1.0:
        return sum(c * cap for c, cap in zip(coefficients, caps))
    pairs = sorted((cap / c, c, cap) for c, cap in zip(coefficients, caps) if c > 0.0)
    fixed_squares = fixed_sum = 0.0
    free_squares = sum(c * c for _, c, _ in pairs)
    for ratio, c, cap in pairs:
        if free_squares <= 0.0:
            break
        scale = math.sqrt(max(0.0, 1.0 - fixed_squares) / free_squares)
        if scale <= ratio:
            return fixed_sum + scale * free_squares
        fixed_squares += cap * cap
        fixed_sum += c * cap
        free_squares -= c * c
    return fixed_sum
