"""Scores above a threshold without walking whole posting lists: bounds over impact-ordered lists, exact.

A score here is a sum over posting lists of ``coefficient * weight``, added
in a fixed order (the order :meth:`BM25Index.query_lists` and
:meth:`NgramIndex.query_lists` give). :class:`ScoredLists` finds every
document whose score is at least a threshold, and its score, bit-identical
to the full walk, without touching most postings:

- Each list's bound is ``coefficient * its largest weight``, and each list
  has an impact order (its positions by weight, largest first; see
  :func:`._packed.impact_order`), so its postings over a weight are a
  prefix found by bisection. Candidates come from the cheapest of three
  necessary conditions (:meth:`ScoredLists.candidates`): a list that must
  give its part, a contribution level every list is read down to (with
  unit-vector lists bounded by water-filling), or a count of lists.
- Candidates' weights are then looked up a list at a time, the lists with
  the largest bounds first; a candidate is dropped as soon as what it has
  plus what the rest could add falls under the threshold. With very many
  candidates, one walk over every posting (membership tested in C) costs
  less, and adds the same floats in the same order.
- A survivor's score is summed again in the fixed order, so it is the very
  float the full walk gives.

This relies on every coefficient and weight being non-negative (they are:
IDF in its "+1" form, saturated frequencies, query shares, unit-vector gram
weights), and on ids in each list being ascending. Bounds are inflated by
:data:`MARGIN` so that rounding never drops a document at the threshold.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain, compress, islice, repeat
from operator import eq
from typing import Any

from ._blocks import SHIFT, BlockWalk
from ._packed import impact_order
from ._sums import weighted_sums
from ._unit_bound import unit_most

# Relative slack on every bound: far above the rounding of a few dozen additions (about 1e-15).
MARGIN = 1e-9
# A list this many times longer than the candidates is searched by bisection; a shorter one is read whole into a dict.
BISECT_RATIO = 2
# Looking a document up in a list costs about this many postings read in a walk, the pruning around it
# included (measured at 100,000 ops over the bench requests: 1 to 6, most often 2 to 3).
WALK_RATIO = 3
# Halvings in the search for a contribution level (:meth:`ScoredLists._level`): within 1e-7 of the best level.
LEVEL_STEPS = 24
# The count of lists is used when the contribution level would read more than 1 / COUNT_RATIO of all postings:
# merging every list costs about a walk, and prefixes overlap (a short op heads many gram lists), so their
# union is often far smaller than the sum of their lengths.
COUNT_RATIO = 2
# Thresholds tried for the top score, as shares of the most any document could get (then the seed itself:
# every step down costs a candidate search, and the seed is usually close to the top).
TOP_GUESSES = (0.9, 0.0)
# Block by block, the top is looked for until this share of a walk's postings was read; then every list is walked.
BLOCK_SHARE = 0.5


class ScoredLists:
    """The posting lists of one score, in summation order: ``(ids, weights, coefficient)`` each, with their largest weights.

    ``unit``: each document's weights over these lists are part of a unit
    vector (cosine scores), so by Cauchy-Schwarz the lists in a set add at
    most the length of their coefficients' vector.
    """

    def __init__(self, lists: Sequence[tuple[Any, Any, float]], orders: Sequence[Any], *, unit: bool = False, maxima: Sequence[tuple[Any, Any]] | None = None, blocks: int = 0):
        self.lists = list(lists)
        # Impact orders (None: worked out when first needed; the block walk needs none).
        self.orders = list(orders)
        # The largest weight of each list (read from its block maxima when it has them: a list may hold half the ops).
        self.peaks = [max(weights) if len(weights) else 0.0 for _, weights, _ in self.lists] if maxima is None else [max(found[1], default=0.0) for found in maxima]
        self.bounds = [coefficient * peak * (1.0 + MARGIN) for (_, _, coefficient), peak in zip(self.lists, self.peaks)]
        self.squares = [coefficient * coefficient for _, _, coefficient in self.lists]
        self.unit = unit
        self.postings = sum(len(ids) for ids, _, _ in self.lists)
        self._merged_ids: list[int] | None = None
        # Every document's score, once a walk of every list has worked them out (see :meth:`best`).
        self.walked: dict[int, float] | None = None
        # Each list's block maxima (:func:`._blocks.block_maxima`) over ``blocks`` blocks: the top is then found block by block.
        self.maxima = maxima
        self.block_total = blocks
        self.blocks: BlockWalk | None = None
        self._levels: dict[float, float | None] = {}

    def __bool__(self) -> bool:
        return bool(self.lists)

    def bound(self, positions: Iterable[int]) -> float:
        """The most a document can get from the lists at ``positions``."""
        positions = list(positions)
        most = sum(self.bounds[p] for p in positions)
        if self.unit:
            most = min(most, math.sqrt(sum(self.squares[p] for p in positions)) * (1.0 + MARGIN))
        return most

    def best(self, seed: float) -> dict[int, float]:
        """The documents at the top score (and maybe a few under it), with exact scores; ``seed`` is some document's score (> 0).

        With block maxima, the blocks are scored highest bound first down to
        the top (:class:`._blocks.BlockWalk`); when their bounds are so loose
        that this reads more than ``BLOCK_SHARE`` of a walk, every list is
        walked instead. Without them, thresholds from near the highest
        possible score down to ``seed``: the first that finds a document has
        found every document above it, so the top among them is the top of all.
        """
        if self.maxima is not None and self.walked is None:
            if self.blocks is None:
                self.blocks = BlockWalk(self.lists, self.maxima, self.block_total, MARGIN)
            self.blocks.score_down_to(seed, int(self.postings * BLOCK_SHARE), to_top=True)
            if self.blocks.ceiling() < self.blocks.top:
                return _at_least(self.blocks.scores, self.blocks.top)
            self.blocks = None
            scores = self.walked = self.everything()
            return _at_least(scores, max(scores.values()))
        ceiling = self.bound(range(len(self.lists)))
        postings = self.postings
        for share in TOP_GUESSES:
            threshold = max(seed, share * ceiling)
            candidates = self.candidates(threshold) if self._fewest(threshold) * len(self.lists) * WALK_RATIO <= postings else None
            if candidates is None or len(candidates) * len(self.lists) * WALK_RATIO > postings:
                # Bounds this loose would look up more than a walk of every posting reads; the walk's
                # scores are kept (``walked``), so that later steps look a score up instead of a list.
                scores = self.walked = self.everything()
                return _at_least(scores, max(scores.values()))
            found = self.at_least(threshold, candidates)
            if found:
                return found
        raise AssertionError("the seed document scores at least the seed")

    def block_walk(self) -> BlockWalk | None:
        """The block walk of these lists (started by :meth:`best`, or now); None without block maxima."""
        if self.blocks is None and self.maxima is not None:
            self.blocks = BlockWalk(self.lists, self.maxima, self.block_total, MARGIN)
        return self.blocks

    def known(self) -> tuple[dict[int, float], float] | None:
        """Exact scores worked out so far (a walk's, or the blocks scored) and the most any other document can score; None before any."""
        if self.walked is not None:
            return self.walked, 0.0
        if self.blocks is not None:
            return self.blocks.scores, self.blocks.ceiling()
        return None

    def everything(self, only: set[int] | None = None) -> dict[int, float]:
        """Every document's score (or those ``only`` names), by walking every list: the full walk's additions, in its order."""
        if only is None:
            return weighted_sums(self.lists)
        scores: dict[int, float] = {}
        get = scores.get
        for ids, weights, coefficient in self.lists:
            products: Iterable[Any] = map(coefficient.__mul__, weights)
            for doc_id, product in compress(zip(ids, products), map(only.__contains__, ids)):
                scores[doc_id] = get(doc_id, 0.0) + product
        return scores

    def candidates(self, threshold: float) -> set[int]:
        """A superset of the documents whose score is at least ``threshold`` (> 0), from the cheapest of three necessary conditions.

        - *Required lists*: a list whose part is needed even with every other
          list at its bound must hold the document, at or over a weight:
          the documents are in the smallest such part (a prefix of the
          list's impact order), and over the floor of every other one.
        - *A contribution level*: every list read in impact order down to
          the highest ``coefficient * weight`` at which a document with
          every posting under it falls short; the union of those prefixes.
        - *A count of lists*: when no document in fewer than ``k`` lists
          can reach the threshold, the ids of every list merged in order
          (a C sort of sorted runs) give those that occur ``k`` times.
        """
        known = self.known()
        if known is not None and threshold * (1.0 - MARGIN) > known[1]:
            return set(_at_least(known[0], threshold * (1.0 - MARGIN)))
        level = self._level(threshold)
        if level is None:
            return set()
        required = self._required(threshold)
        if required:
            cuts = [(self._cut(position, floor), position, floor) for position, floor in required]
            cut, position, _ = min(cuts)
            found = sorted(self._prefix(position, cut))
            for _, other, floor in cuts:
                if other != position and found:
                    ids, weights, _ = self.lists[other]
                    found = [d for d, w in zip(found, _weights_of(ids, weights, found)) if w is not None and w >= floor]
            return set(found)
        cuts = [(self._cut(position, level / coefficient * (1.0 - MARGIN)), position) for position, (_, _, coefficient) in enumerate(self.lists) if coefficient > 0.0]
        least = self._least_lists(threshold)
        if least >= 2 and sum(cut for cut, _ in cuts) * COUNT_RATIO > self.postings:
            merged = self._merged()
            return set(compress(merged, map(eq, merged, islice(merged, least - 1, None))))
        found: set[int] = set()
        for cut, position in cuts:
            found.update(self._prefix(position, cut))
        return found

    def _least_lists(self, threshold: float) -> int:
        """How many lists a document must hold to reach ``threshold`` (the strongest ``k`` lists together fall short with fewer)."""
        bounds = sorted(self.bounds, reverse=True)
        squares = sorted(self.squares, reverse=True)
        most = squared = 0.0
        for count, (bound, square) in enumerate(zip(bounds, squares), start=1):
            most += bound
            squared += square
            reach = min(most, math.sqrt(squared) * (1.0 + MARGIN)) if self.unit else most
            if reach >= threshold:
                return count
        return len(bounds) + 1

    def _merged(self) -> list[int]:
        """Every list's ids in one ascending list, a document once per list holding it (made once)."""
        if self._merged_ids is None:
            self._merged_ids = sorted(chain.from_iterable(ids for ids, _, _ in self.lists))
        return self._merged_ids

    def _required(self, threshold: float) -> list[tuple[int, float]]:
        """The lists a document must hold to reach ``threshold``, each with the least weight it must have there."""
        count = len(self.lists)
        required = []
        for position, (_, _, coefficient) in enumerate(self.lists):
            needed = threshold - self.bound(p for p in range(count) if p != position)
            if needed > 0.0 and coefficient > 0.0:
                required.append((position, needed / coefficient * (1.0 - MARGIN)))
        return required

    def _cut(self, position: int, floor: float) -> int:
        """How many postings of one list weigh at least ``floor``."""
        weights = self.lists[position][1]
        return bisect_right(self._order(position), -floor, key=lambda p: -weights[p])

    def _prefix(self, position: int, cut: int) -> list[int]:
        """The ids of one list's ``cut`` heaviest postings: a prefix of its impact order."""
        return list(map(self.lists[position][0].__getitem__, self._order(position)[:cut]))

    def _order(self, position: int) -> Any:
        if self.orders[position] is None:
            self.orders[position] = impact_order(self.lists[position][1])
        return self.orders[position]

    def _fewest(self, threshold: float) -> int:
        """A lower bound on how many candidates :meth:`candidates` gives, from bisections only: the longest prefix at the contribution level (0 when another condition would decide)."""
        if self.walked is not None or self._required(threshold):
            return 0
        level = self._level(threshold)
        if level is None:
            return 0
        cuts = [self._cut(position, level / coefficient * (1.0 - MARGIN)) for position, (_, _, coefficient) in enumerate(self.lists) if coefficient > 0.0]
        if self._least_lists(threshold) >= 2 and sum(cuts) * COUNT_RATIO > self.postings:
            return 0
        return max(cuts, default=0)

    def _level(self, threshold: float) -> float | None:
        """A contribution level under which no document can reach ``threshold``; None if none can at all.

        Largest such level found by bisection on :meth:`_most_under`, which
        only grows with the level.
        """
        if threshold in self._levels:
            return self._levels[threshold]
        level = None
        if self.lists and self._most_under(max(self.bounds)) >= threshold:
            low, high = 0.0, max(self.bounds)
            for _ in range(LEVEL_STEPS):
                middle = (low + high) / 2.0
                if self._most_under(middle) < threshold:
                    low = middle
                else:
                    high = middle
            level = low
        self._levels[threshold] = level
        return level

    def _most_under(self, level: float) -> float:
        """The most a document can get when each of its contributions is under ``level`` (or its list's bound)."""
        caps = [min(bound, level) for bound in self.bounds]
        most = sum(caps)
        if self.unit:
            # Weights capped at cap / coefficient on a unit vector: water-filling gives the exact maximum.
            most = min(most, unit_most([c for _, _, c in self.lists], [cap / c if c > 0.0 else 0.0 for cap, (_, _, c) in zip(caps, self.lists)]))
        return most * (1.0 + MARGIN)

    def at_least(self, threshold: float, documents: Iterable[int], thresholds: Mapping[int, float] | None = None) -> dict[int, float]:
        """The exact scores of those ``documents`` whose score is at least ``threshold`` (or their own, in ``thresholds``).

        The lists are read strongest first, each for every document still in
        the running at once (a bisection per document, or one dict when the
        list is short): a document is dropped as soon as what it has plus
        what the other lists could add falls under its threshold. A
        threshold of 0 scores every document that any list holds.
        """
        known = self.known()
        if known is not None:
            return self._from_known(known, threshold, documents, thresholds)
        return self._looked_up(threshold, documents, thresholds)

    def _from_known(self, known: tuple[dict[int, float], float], threshold: float, documents: Iterable[int], thresholds: Mapping[int, float] | None) -> dict[int, float]:
        """:meth:`at_least` from the scores known; the documents of blocks not scored that may still reach their threshold are looked up."""
        scores, ceiling = known
        scored = self.blocks.scored if self.walked is None and self.blocks is not None else None
        # A block's bound caps its ops' scores: tighter than the ceiling over every block not scored.
        bounds = self.blocks.bounds if scored is not None else None
        found: dict[int, float] = {}
        unknown = []
        for doc_id in documents:
            floor = (threshold if thresholds is None else thresholds[doc_id]) * (1.0 - MARGIN)
            score = scores.get(doc_id)
            if score is not None:
                if score >= floor:
                    found[doc_id] = score
            elif scored is not None and floor <= ceiling and (doc_id >> SHIFT) not in scored and floor <= bounds[doc_id >> SHIFT]:
                unknown.append(doc_id)
        if unknown:
            found.update(self._looked_up(threshold, unknown, thresholds))
        return found

    def _looked_up(self, threshold: float, documents: Iterable[int], thresholds: Mapping[int, float] | None) -> dict[int, float]:
        docs = sorted(documents)
        if not docs:
            return {}
        if len(docs) * len(self.lists) * WALK_RATIO > self.postings:
            # So many documents that reading every posting (each tested for membership in C) costs less than looking them up.
            scores = self.everything(set(docs))
            if thresholds is None:
                floor = threshold * (1.0 - MARGIN)
                return {d: score for d, score in scores.items() if score >= floor}
            return {d: score for d, score in scores.items() if score >= thresholds[d] * (1.0 - MARGIN)}
        coefficients = [coefficient for _, _, coefficient in self.lists]
        strongest = sorted(range(len(self.lists)), key=self.bounds.__getitem__, reverse=True)
        floors = [threshold * (1.0 - MARGIN)] * len(docs) if thresholds is None else [thresholds[d] * (1.0 - MARGIN) for d in docs]
        gathered = [0.0] * len(docs)
        squares = [0.0] * len(docs)
        found: list[dict[int, float]] = [{} for _ in self.lists]
        for place, position in enumerate(strongest):
            could = self.bound(strongest[place:])
            if self.unit:
                # The rest of a unit vector whose found part has length sqrt(squares).
                length = math.sqrt(sum(self.squares[p] for p in strongest[place:])) * (1.0 + MARGIN)
                alive = [g + (min(could, length * math.sqrt(max(0.0, 1.0 - q) + MARGIN)) if q > 0.0 else could) >= f for g, q, f in zip(gathered, squares, floors)]
            else:
                alive = [g + could >= f for g, f in zip(gathered, floors)]
            if not all(alive):
                docs, gathered, squares, floors = (list(compress(column, alive)) for column in (docs, gathered, squares, floors))
                if not docs:
                    return {}
            ids, weights, coefficient = self.lists[position]
            column = _weights_of(ids, weights, docs)
            found[position] = {d: w for d, w in zip(docs, column) if w is not None}
            gathered = [g if w is None else g + coefficient * w for g, w in zip(gathered, column)]
            if self.unit:
                squares = [q if w is None else q + w * w for q, w in zip(squares, column)]
        scores: dict[int, float] = {}
        for doc_id, floor in zip(docs, floors):
            score = _sum_in_order([weights.get(doc_id) for weights in found], coefficients)
            if score is not None and score >= floor:
                scores[doc_id] = score
        return scores


def _at_least(scores: dict[int, float], floor: float) -> dict[int, float]:
    """The entries of ``scores`` at or over ``floor``; the comparisons run in C (a walk's tens of thousands of scores)."""
    keep = list(map(floor.__le__, scores.values()))
    return dict(zip(compress(scores.keys(), keep), compress(scores.values(), keep)))


def _sum_in_order(found: Sequence[float | None], coefficients: Sequence[float]) -> float | None:
    """``coefficient * weight`` added in list order, the first product taken as is: the full walk's float."""
    total: float | None = None
    for weight, coefficient in zip(found, coefficients):
        if weight is None:
            continue
        product = coefficient * weight
        total = product if total is None else total + product
    return total


def _weights_of(ids: Any, weights: Any, docs: list[int]) -> list[float | None]:
    """Each of ``docs`` (ascending)'s weight in one list, None where the list does not hold it."""
    size = len(ids)
    if size <= BISECT_RATIO * len(docs):
        return list(map(dict(zip(ids, weights)).get, docs))
    positions = map(bisect_left, repeat(ids, len(docs)), docs)
    return [weights[at] if at < size and ids[at] == doc_id else None for at, doc_id in zip(positions, docs)]
