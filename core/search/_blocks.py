"""Block maxima of posting lists, and the top of a score found block by block (block-max pruning).

The ids of a catalogue's ops are cut into blocks of ``2 ** SHIFT``
consecutive ids. Each posting list keeps the largest weight it has in each
block it touches (:func:`block_maxima`, made at build time and cached with
the index). For a query, a block's bound is the sum over its lists of
``coefficient * that list's maximum in the block``: no op in the block can
score more. Bounds over a whole list (its peak) are loose when the query's
words are common and their weights flat (thousands of short ops hold a
query's trigrams at about the same weight, each holding a few of them); a
block's bound only counts the weights present in its 64 ops, so most blocks
fall well under the best score.

:class:`BlockWalk` scores whole blocks, highest bound first: once the next
block's bound is under the best score found, that score is the top. Every op
of a scored block is scored exactly, with the same additions in the same
order as the full walk (lists in summation order, one posting per op and
list), so the scores are bit-identical to it; every op of the blocks not
scored is at most the next block's bound (:meth:`BlockWalk.ceiling`).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections import deque
from collections.abc import Iterable, Sequence
from itertools import compress
from operator import add
from typing import Any

# Blocks of 64 ids: at 100,000 ops about 1,600 blocks, 3 block maxima an op over the trigram lists.
SHIFT = 6
# A list that touches more than 1 / DENSE_SHARE of the blocks keeps a maximum for every block (8 bytes each,
# added to a query's bounds in C); a shorter one keeps the blocks it touches with their maxima (12 bytes each).
DENSE_SHARE = 3
# Blocks scored at once: sorting them by id and finding each list's slice of them costs the same for a few more.
CHUNK = 8


def block_count(size: int) -> int:
    """How many blocks the ids ``0 .. size - 1`` fall in."""
    return (size >> SHIFT) + 1


def block_maxima(ids: Sequence[int], weights: Sequence[float]) -> tuple[array, array]:
    """A list's largest weight in each block it touches: ``(block numbers, maxima)``, the form kept in the cache."""
    numbers = array("i")
    maxima = array("d")
    start, size = 0, len(ids)
    while start < size:
        block = ids[start] >> SHIFT
        end = bisect_left(ids, (block + 1) << SHIFT, start)
        numbers.append(block)
        maxima.append(max(weights[start:end]))
        start = end
    return numbers, maxima


def for_queries(maxima: tuple[Any, Any], blocks: int) -> tuple[Any, Any]:
    """Block maxima as a query reads them: ``(empty, a maximum for every block)`` for a list touching many blocks, else as kept."""
    numbers, peaks = maxima
    if len(numbers) * DENSE_SHARE <= blocks:
        return maxima
    dense = array("d", bytes(8 * blocks))
    # Set in C: a new query makes dozens of lists dense.
    deque(map(dense.__setitem__, numbers, peaks), maxlen=0)
    return array("i"), dense


def peak(ids: Sequence[int], weights: Sequence[float], maxima: tuple[Any, Any]) -> tuple[float, int]:
    """A list's largest weight and the first id holding it, from its block maxima (a block is read, not the list)."""
    numbers, peaks = maxima
    top = max(peaks)
    block = numbers[peaks.index(top)] if len(numbers) else peaks.index(top)
    start = bisect_left(ids, block << SHIFT)
    end = bisect_left(ids, (block + 1) << SHIFT, start)
    return top, ids[start + weights[start:end].index(top)]


class BlockWalk:
    """Scores the ops of a query's lists a block at a time, the blocks with the highest bounds first.

    ``scores`` holds the exact score of every op in the blocks scored so far
    (those that any list holds); :meth:`ceiling` bounds every other op's.
    ``read`` counts the postings read, to compare with a walk of every list.
    """

    def __init__(self, lists: Sequence[tuple[Any, Any, float]], maxima: Sequence[tuple[Any, Any]], blocks: int, margin: float):
        bounds = [0.0] * blocks
        for (_, _, coefficient), (numbers, peaks) in zip(lists, maxima):
            if not len(numbers):
                if len(peaks):
                    bounds = list(map(add, bounds, map(coefficient.__mul__, peaks)))
                continue
            # bounds[block] += coefficient * peak for each block the list touches, in C (each block once: the same additions).
            added = map(add, map(bounds.__getitem__, numbers), map(coefficient.__mul__, peaks))
            deque(map(bounds.__setitem__, numbers, added), maxlen=0)
        # Inflated so that rounding in the sums never puts a bound under a score it must cover.
        self.bounds = list(map((1.0 + 2.0 * margin).__mul__, bounds))
        self.order = list(compress(range(blocks), bounds))
        self.order.sort(key=self.bounds.__getitem__, reverse=True)
        self.lists = lists
        self.scores: dict[int, float] = {}
        self.top = 0.0
        self.read = 0
        # The blocks scored: an op in one of them and not in ``scores`` is in none of the lists.
        self.scored: set[int] = set()
        # The ops (ascending) of each block scored that any list holds.
        self._ops_of: dict[int, list[int]] = {}
        self._next = 0

    def ceiling(self) -> float:
        """The most an op outside ``scores`` can score: the bound of the next block not scored."""
        return self.bounds[self.order[self._next]] if self._next < len(self.order) else 0.0

    def score_down_to(self, floor: float, budget: int | None = None, *, to_top: bool = False) -> None:
        """Scores the blocks whose bound is at least ``floor``, highest first, until ``read`` passes ``budget``.

        ``to_top``: stop as soon as the next bound is under the best score
        found too, which is then the top score of every op.
        """
        order, bounds = self.order, self.bounds
        while self._next < len(order):
            reach = max(floor, self.top) if to_top else floor
            if bounds[order[self._next]] < reach or (budget is not None and self.read >= budget):
                return
            chunk = []
            while self._next < len(order) and len(chunk) < CHUNK and bounds[order[self._next]] >= reach:
                chunk.append(order[self._next])
                self._next += 1
            self._score(sorted(chunk))

    def _score(self, chunk: list[int]) -> None:
        found = self.score_blocks(chunk)
        if found:
            self.top = max(self.top, max(found.values()))

    def score_blocks(self, chunk: list[int]) -> dict[int, float]:
        """The exact scores of the ops in these blocks (ascending) that any list holds; kept in ``scores`` too.

        A block scored before is not read again: its ops' scores are taken
        from ``scores`` (step 2 of :func:`._top.best_prefix` asks again for
        most blocks the divisor's walk read).
        """
        found: dict[int, float] = {}
        again = [block for block in chunk if block in self._ops_of]
        if again:
            scores = self.scores
            for block in again:
                ops = self._ops_of[block]
                found.update(zip(ops, map(scores.__getitem__, ops)))
            chunk = [block for block in chunk if block not in self._ops_of]
        self.scored.update(chunk)
        new = self._read(chunk)
        ordered = sorted(new)
        for block in chunk:
            start = bisect_left(ordered, block << SHIFT)
            self._ops_of[block] = ordered[start : bisect_left(ordered, (block + 1) << SHIFT, start)]
        found.update(new)
        return found

    def _read(self, chunk: list[int]) -> dict[int, float]:
        found: dict[int, float] = {}
        get = found.get
        read = 0
        # Blocks no list has given a posting yet: their ops' first products are stored as they are (0.0 + x is x), in C.
        fresh = set(chunk)
        for ids, weights, coefficient in self.lists:
            for block in chunk:
                start = bisect_left(ids, block << SHIFT)
                end = bisect_left(ids, (block + 1) << SHIFT, start)
                if start == end:
                    continue
                read += end - start
                if block in fresh:
                    fresh.discard(block)
                    found.update(zip(ids[start:end], map(coefficient.__mul__, weights[start:end])))
                    continue
                # One posting per op and list, lists in summation order: the walk's additions.
                for doc_id, product in zip(ids[start:end], map(coefficient.__mul__, weights[start:end])):
                    found[doc_id] = get(doc_id, 0.0) + product
        self.read += read
        self.scores.update(found)
        return found


def fused_order(words: BlockWalk, grams: BlockWalk | None, word_scale: float, gram_scale: float, lifted_blocks: Iterable[int], lift: float, margin: float) -> tuple[list[float], list[int]]:
    """Each block's bound on the final score (``word_scale * words + gram_scale * grams``, times ``lift`` in a block holding a lifted op), and the blocks by bound, highest first."""
    bounds = list(map(word_scale.__mul__, words.bounds))
    if grams is not None and gram_scale:
        bounds = list(map(add, bounds, map(gram_scale.__mul__, grams.bounds)))
    lifted = list(lifted_blocks)
    deque(map(bounds.__setitem__, lifted, map(lift.__mul__, map(bounds.__getitem__, lifted))), maxlen=0)
    bounds = list(map((1.0 + 2.0 * margin).__mul__, bounds))
    order = list(compress(range(len(bounds)), bounds))
    order.sort(key=bounds.__getitem__, reverse=True)
    return bounds, order
