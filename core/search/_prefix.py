"""The exact start of a ranking, as the pruned paths (:mod:`._top`, :mod:`._dense`) find it."""

from __future__ import annotations

from .._record import record


@record(frozen=True)
class Prefix:
    """The exact start of a ranking: ops that pass the filters, best first, with their final scores and evidence."""

    order: list[int]
    scores: dict[int, float]
    evidence: dict[int, float]
