"""The top of a ranking from every posting added in C, where numpy is installed.

:mod:`._top` finds a query's first ops by block bounds, reading tens of
thousands of postings in a Python loop at 0.2 to 0.3 us each; a new query
at 100,000 ops spent 5 to 25 ms there (docs/performance.md). Here every
posting of the query's lists is added at once, in C: the lists of a lane
are concatenated in summation order and ``numpy.bincount`` adds each
product to its op's sum in input order, starting from 0.0. So each op's
sum is the very float the full walk gives (0.0 + x is x, then the same
additions in the same order), and the fused score and the rules' factors
are the same IEEE multiplications and additions as :func:`._top.best_prefix`
and :func:`._lexical._mix` make, one op at a time. Ops no list holds score
0.0 in the arrays and are left out by the masks of ops held.

numpy is optional (the ``semantic`` extra): without it :func:`._top.best_prefix`
reads blocks as before. It is imported the first time a catalogue large
enough for pruning is searched, never at import.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from ._lexical import NGRAM_SHARE, LexicalMatch, LexicalRanker, SummedLists
from ._prefix import Prefix
from ._rules import ACTION_LIFT, DESTRUCTIVE_SHARE

# Ops sorted first when looking for the ``wanted`` best eligible ones (times ``wanted``, at least ``LEAST_SORTED``);
# more are sorted, four times as many each round, while too few of them pass the filters.
SORTED_PER_WANTED = 4
LEAST_SORTED = 64


@cache
def numpy_module() -> Any:
    """numpy, or None when it is not installed."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def dense_prefix(
    lexical: LexicalRanker,
    lists: SummedLists,
    factors: tuple[frozenset[int], frozenset[int]],
    passes: Callable[[int], bool],
    min_evidence: float,
    wanted: int,
) -> tuple[Prefix, dict[int, tuple[float, float | None, float | None]]] | None:
    """The ranking's exact start, as :func:`._top.best_prefix` gives it, and its head; None to walk everything.

    The prefix: the ops that pass the filters, best first, down to the
    ``wanted``-th best eligible score (all of them if fewer pass). The
    head: every op at or over that score, eligible or not, with its final,
    word and gram scores (see :meth:`LexicalRanker.remember_head`; empty
    when fewer than ``wanted`` pass).
    """
    np = numpy_module()
    size = lexical.words.size
    words, word_held = _sums(np, lists.words, size)
    if lists.grams:
        grams, gram_held = _sums(np, lists.grams, size)
    else:
        grams, gram_held = np.zeros(size), np.zeros(size, dtype=bool)
    best_word, best_gram = float(words.max()), float(grams.max())
    if best_word <= 0.0:
        return None  # no word scores anything: the full ranking decides (as the block path needs a word score too)
    word_scale = (1.0 - NGRAM_SHARE) / best_word
    gram_scale = NGRAM_SHARE / best_gram if best_gram > 0.0 else 0.0
    final = words * word_scale
    held = word_held
    if gram_scale:
        # x + 0.0 is x: an op that one lane holds gets that lane's product alone, as _mix gives it.
        final += grams * gram_scale
        held = word_held | gram_held
    lifted, barred = factors
    # No op is both lifted and barred (Rules.factors): the order of the two products does not matter.
    for ops, factor in ((lifted, ACTION_LIFT), (barred, DESTRUCTIVE_SHARE)):
        if ops:
            at = lexical.op_array(ops)
            final[at] *= factor
    # Scores leave the arrays only for the best ops: evidence and the filters read them one at a time.
    word_scores: dict[int, float] = {}
    gram_scores: dict[int, float] = {}
    match = LexicalMatch({}, word_scores, gram_scores, lists.ceiling)
    evidence: dict[int, float] = {}
    verdicts: dict[int, bool] = {}

    def read(doc_id: int) -> None:
        if word_held[doc_id]:
            word_scores[doc_id] = float(words[doc_id])
        if gram_held[doc_id]:
            gram_scores[doc_id] = float(grams[doc_id])

    def eligible(doc_id: int) -> bool:
        verdict = verdicts.get(doc_id)
        if verdict is None:
            read(doc_id)
            evidence[doc_id] = match.coverage(doc_id)
            verdict = verdicts[doc_id] = evidence[doc_id] >= min_evidence and passes(doc_id)
        return verdict

    ids = np.flatnonzero(held)
    scores = final[ids]
    count = min(len(ids), max(SORTED_PER_WANTED * wanted, LEAST_SORTED))
    while True:
        if count < len(ids):
            # Every op scoring at least the count-th best score (ties included).
            least = np.partition(scores, len(ids) - count)[len(ids) - count]
            picked = ids[scores >= least]
        else:
            picked = ids
        values = final[picked]
        # Best score first, ties by op: the full ranking's order.
        by_rank = np.lexsort((picked, -values))
        ordered, ordered_values = picked[by_rank].tolist(), values[by_rank].tolist()
        threshold = _wanted_th(ordered, eligible, wanted)
        if threshold is not None or count >= len(ids):
            break
        count = min(len(ids), count * SORTED_PER_WANTED)
    floor = ordered_values[threshold] if threshold is not None else 0.0
    order = [d for d, value in zip(ordered, ordered_values) if value >= floor and eligible(d)]
    head: dict[int, tuple[float, float | None, float | None]] = {}
    if threshold is not None and floor > 0.0:
        for doc_id, value in zip(ordered, ordered_values):
            if value < floor:
                break
            read(doc_id)
            head[doc_id] = (value, word_scores.get(doc_id), gram_scores.get(doc_id))
    return Prefix(order, dict(zip(ordered, ordered_values)), evidence), head


def _wanted_th(ordered: list[int], eligible: Callable[[int], bool], wanted: int) -> int | None:
    """The place in ``ordered`` of its ``wanted``-th eligible op, or None if fewer are eligible."""
    passed = 0
    for place, doc_id in enumerate(ordered):
        if eligible(doc_id):
            passed += 1
            if passed == wanted:
                return place
    return None


def _sums(np: Any, lists: Sequence[tuple[Any, Any, float]], size: int) -> tuple[Any, Any]:
    """Each op's sum of ``coefficient * weight`` over ``lists`` (added in list order), and which ops any list holds."""
    ids = np.concatenate([np.asarray(found) for found, _, _ in lists])
    # weight * coefficient: the walk's coefficient * weight (a product of two doubles is the same either way round).
    products = np.concatenate([np.asarray(weights, dtype=np.float64) * coefficient for _, weights, coefficient in lists])
    held = np.zeros(size, dtype=bool)
    held[ids] = True
    return np.bincount(ids, weights=products, minlength=size), held
