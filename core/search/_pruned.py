"""Scores above a threshold without walking whole posting lists: MaxScore over sorted lists, exact.

A score here is a sum over posting lists of ``coefficient * weight``, added
in a fixed order (the order :meth:`BM25Index.query_lists` and
:meth:`NgramIndex.query_lists` give). :class:`ScoredLists` finds every
document whose score is at least a threshold, and its score, bit-identical
to the full walk, without touching most postings:

- Each list's bound is ``coefficient * its largest weight``. Lists sorted by
  bound, the longest prefix whose bounds add up to less than the threshold
  is *non-essential*: a document found only there cannot reach the threshold,
  so candidates come from the other lists alone (MaxScore, Turtle and Flood
  1995). A list whose bound is needed even with every other list at its
  bound gives only its postings over that floor.
- A candidate's weights are then looked up by bisection (ids are
  ascending), the lists with the largest bounds first; as soon as what it
  has plus what the rest could add falls under the threshold, it is dropped.
- A survivor's score is summed again in the fixed order, so it is the very
  float the full walk gives.

This relies on every coefficient and weight being non-negative (they are:
IDF in its "+1" form, saturated frequencies, query shares, unit-vector gram
weights), and on ids in each list being ascending. Bounds are inflated by
:data:`MARGIN` so that rounding never drops a document at the threshold.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence
from itertools import compress
from typing import Any

# Relative slack on every bound: far above the rounding of a few dozen additions (about 1e-15).
MARGIN = 1e-9
# A list this many times longer than the candidates is searched by bisection; a shorter one is read whole into a dict.
BISECT_RATIO = 8


class ScoredLists:
    """The posting lists of one score, in summation order: ``(ids, weights, coefficient)`` each, with their largest weights."""

    def __init__(self, lists: Sequence[tuple[Any, Any, float]], peaks: Sequence[float]):
        self.lists = list(lists)
        self.bounds = [coefficient * peak * (1.0 + MARGIN) for (_, _, coefficient), peak in zip(self.lists, peaks)]
        self.total = sum(self.bounds)

    def __bool__(self) -> bool:
        return bool(self.lists)

    def candidates(self, threshold: float) -> set[int]:
        """A superset of the documents whose score is at least ``threshold`` (> 0)."""
        order = sorted(range(len(self.lists)), key=self.bounds.__getitem__)
        spare = 0.0
        first_essential = 0
        for position in order:
            if spare + self.bounds[position] >= threshold:
                break
            spare += self.bounds[position]
            first_essential += 1
        found: set[int] = set()
        for position in order[first_essential:]:
            ids, weights, coefficient = self.lists[position]
            # What this list must give when every other list gives its most.
            needed = threshold - (self.total - self.bounds[position])
            if needed > 0.0 and coefficient > 0.0:
                floor = needed / coefficient * (1.0 - MARGIN)
                found.update(compress(ids, map(floor.__le__, weights)))
            else:
                found.update(ids)
        return found

    def at_least(self, threshold: float, documents: Iterable[int]) -> dict[int, float]:
        """The exact scores of those ``documents`` whose score may reach ``threshold``; the rest are dropped once they cannot."""
        documents = sorted(documents)
        if not documents:
            return {}
        lookups = [_lookup(ids, weights, len(documents)) for ids, weights, _ in self.lists]
        coefficients = [coefficient for _, _, coefficient in self.lists]
        strongest = sorted(range(len(self.lists)), key=self.bounds.__getitem__, reverse=True)
        still = [0.0] * (len(strongest) + 1)
        for place in range(len(strongest) - 1, -1, -1):
            still[place] = still[place + 1] + self.bounds[strongest[place]]
        bound_floor = threshold * (1.0 - MARGIN)
        scores: dict[int, float] = {}
        count = len(self.lists)
        for doc_id in documents:
            found: list[float | None] = [None] * count
            gathered = 0.0
            for place, position in enumerate(strongest):
                if gathered + still[place] < bound_floor:
                    break
                weight = lookups[position](doc_id)
                if weight is not None:
                    found[position] = weight
                    gathered += coefficients[position] * weight
            else:
                score = _sum_in_order(found, coefficients)
                if score is not None:
                    scores[doc_id] = score
        return scores

    def score(self, doc_id: int) -> float | None:
        """One document's exact score, or None when no list holds it."""
        found = [_bisect_lookup(ids, weights)(doc_id) for ids, weights, _ in self.lists]
        return _sum_in_order(found, [coefficient for _, _, coefficient in self.lists])



def _sum_in_order(found: Sequence[float | None], coefficients: Sequence[float]) -> float | None:
    """``coefficient * weight`` added in list order, the first product taken as is: the full walk's float."""
    total: float | None = None
    for weight, coefficient in zip(found, coefficients):
        if weight is None:
            continue
        product = coefficient * weight
        total = product if total is None else total + product
    return total


def _lookup(ids: Any, weights: Any, wanted: int):
    if len(ids) > BISECT_RATIO * wanted:
        return _bisect_lookup(ids, weights)
    return dict(zip(ids, weights)).get


def _bisect_lookup(ids: Any, weights: Any):
    size = len(ids)

    def weight_of(doc_id: int) -> float | None:
        at = bisect_left(ids, doc_id)
        return weights[at] if at < size and ids[at] == doc_id else None

    return weight_of
