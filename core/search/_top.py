"""The best ops of a query, found without scoring every op that shares a word with it.

The full ranking (:meth:`SearchIndex._ranked_one`) scores every matching op:
at 100,000 ops that is tens of thousands of ops a query, for a page of ten.
This finds the same first ops, with the same scores, from a few hundred:

1. The divisors. The fused score divides each ranker's score by its best
   (:func:`._lexical._mix`), so both bests must be exact. Each is the top of
   one sum of posting lists: a seed op (one at the peak of each list) gives
   a threshold, and :class:`ScoredLists` finds every op at or above it
   from the heaviest postings of each list (impact order).
2. A bound on the word score. Once the bests are known, an op's n-gram part
   is at most ``NGRAM_SHARE`` (its gram score over the best gram score is at
   most 1), and the rules multiply a score by at most ``ACTION_LIFT`` (only
   the lifted ops), 1 (the rest) or ``DESTRUCTIVE_SHARE`` (the demoted ones).
   So an op whose final score is at least ``t`` has a word score of at least
   ``(t / factor - NGRAM_SHARE) / word_scale``: again a threshold on one sum.
3. The threshold ``t`` is the ``wanted``-th best final score among the ops
   already scored that pass the filters; every such op at or above it is then
   found, and those, best first, are the exact start of the full ranking.

When that cannot work (no word of the query is indexed, too low a threshold
for the bound to say anything), :func:`best_prefix` answers None and the
caller walks everything, as before.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import compress

from .._record import record
from ._lexical import NGRAM_SHARE, LexicalMatch, LexicalRanker
from ._pruned import MARGIN
from ._rules import ACTION_LIFT, DESTRUCTIVE_SHARE

# Under this many ops, walking every posting is as fast or faster (bench_search_scale.py: 3.6 ms CPU for the walk at 10,000 ops, 4.7 pruned).
PRUNE_FROM_OPS = 20_000
# Once the gram lists were walked (the gram divisor's bounds were too loose), the ops with the highest gram
# scores are kept, at most this many and down to GRAM_KEPT_SHARE of the best: every other op's gram score is
# then under the last kept, which raises the word score step 2 asks of them. Their word scores are looked up.
KEPT_GRAMS = 1024
GRAM_KEPT_SHARE = 0.5
# Thresholds tried, as shares of the best score known, when fewer ops than wanted are known:
# each finds every op above it; under the last, walking everything costs about as much.
LADDER = (0.97, 0.9, 0.8, 0.65, 0.5, 0.3)


@record(frozen=True)
class Prefix:
    """The exact start of a ranking: ops that pass the filters, best first, with their final scores and evidence."""

    order: list[int]
    scores: dict[int, float]
    evidence: dict[int, float]


def best_prefix(
    lexical: LexicalRanker,
    query: str,
    factors: tuple[frozenset[int], frozenset[int]],
    passes: Callable[[int], bool],
    min_evidence: float,
    wanted: int,
) -> Prefix | None:
    """At least ``wanted`` ops (fewer only if fewer pass), exactly as the full ranking orders them; None to walk everything."""
    lists = lexical.lists(query)
    words, grams = lists.words, lists.grams
    if not words:
        return None
    word_scores: dict[int, float] = {}
    gram_scores: dict[int, float] = {}

    def known_words(docs: set[int]) -> None:
        missing = [d for d in docs if d not in word_scores]
        word_scores.update(words.at_least(0.0, missing))

    def known_grams(docs: set[int]) -> None:
        if grams:
            missing = [d for d in docs if d not in gram_scores]
            gram_scores.update(grams.at_least(0.0, missing))

    # 1. The best word score, then the best gram score, exactly (kept for the same lists: a repeated query).
    # ``gram_ceiling``: the highest gram score an op outside ``gram_scores`` can have (None: the best gram score).
    remembered = lexical.remembered_tops(lists.key)
    if remembered is not None:
        word_scores.update(remembered[0])
        gram_scores.update(remembered[1])
        gram_ceiling = remembered[2]
    else:
        gram_ceiling = None
        known_words(set(lists.word_peaks))
        word_scores.update(words.best(max(word_scores.values())))
        if grams:
            known_grams(set(word_scores) | set(lists.gram_peaks))
            seed = max(gram_scores.values(), default=0.0)
            if seed > 0.0:
                gram_scores.update(grams.best(seed))
            if grams.walked is not None:
                kept, gram_ceiling = _highest(grams.walked, KEPT_GRAMS, GRAM_KEPT_SHARE)
                gram_scores.update(kept)
        known_grams(set(word_scores))
        known_words(set(gram_scores))
        lexical.remember_tops(lists.key, word_scores, gram_scores, gram_ceiling)
    best_word = max(word_scores.values())
    best_gram = max(gram_scores.values(), default=0.0)
    word_scale = (1.0 - NGRAM_SHARE) / best_word
    gram_scale = NGRAM_SHARE / best_gram if best_gram > 0.0 else 0.0
    # The most an op not scored yet gets from its gram score (the best gram score gives NGRAM_SHARE).
    gram_part = (NGRAM_SHARE if gram_ceiling is None else gram_scale * gram_ceiling) * (1.0 + MARGIN) if gram_scale else 0.0
    lifted, barred = factors
    match = LexicalMatch({}, word_scores, gram_scores, lists.ceiling)
    final: dict[int, float] = {}

    def score_known() -> None:
        for doc_id in set(word_scores) | set(gram_scores):
            if doc_id in final:
                continue
            # The very operations of _mix and Rules.apply, in their order.
            word = word_scores.get(doc_id)
            fused = word_scale * word if word is not None else None
            gram = gram_scores.get(doc_id)
            if gram_scale and gram is not None:
                fused = (fused if fused is not None else 0.0) + gram_scale * gram
            if fused is None:
                continue
            if doc_id in lifted:
                fused *= ACTION_LIFT
            elif doc_id in barred:
                fused *= DESTRUCTIVE_SHARE
            final[doc_id] = fused

    score_known()
    evidence: dict[int, float] = {}
    verdicts: dict[int, bool] = {}

    def eligible(doc_id: int) -> bool:
        # Asked of the best ops only: the filters read the op's record, which a cached registry decodes on demand.
        verdict = verdicts.get(doc_id)
        if verdict is None:
            evidence[doc_id] = match.coverage(doc_id)
            verdict = verdicts[doc_id] = evidence[doc_id] >= min_evidence and passes(doc_id)
        return verdict

    def eligible_from(threshold: float) -> list[int]:
        return sorted((d for d in final if final[d] >= threshold and eligible(d)), key=lambda d: (-final[d], d))

    def reaching_words(floor: float) -> set[int]:
        # No op's word score is over the best (exact), so a floor above it needs no search.
        return set() if floor * (1.0 - MARGIN) > best_word else words.candidates(floor)

    nth = None
    found = 0
    for doc_id in sorted(final, key=final.__getitem__, reverse=True):
        found += eligible(doc_id)
        if found == wanted:
            nth = final[doc_id]
            break
    if nth is not None:
        thresholds = [nth]
    else:
        top = max(final.values(), default=0.0)
        thresholds = [top * share for share in LADDER]
    # 2-3. Every op that can reach the threshold, found through its word score.
    for threshold in thresholds:
        needed = _word_thresholds(threshold, word_scale, gram_part, bool(lifted), bool(barred))
        if needed is None:
            return None
        # Each op against its own factor's floor; the lifted ones, a known set, are looked for on their own.
        candidates = reaching_words(needed[1.0])
        if lifted:
            candidates |= lifted.intersection(reaching_words(needed[ACTION_LIFT]))
        candidates.difference_update(final)
        floors = {d: needed[ACTION_LIFT if d in lifted else DESTRUCTIVE_SHARE if d in barred else 1.0] for d in candidates}
        fresh: dict[int, float] = {}
        gram_needed: dict[int, float] = {}
        for doc_id, word in words.at_least(0.0, candidates, floors).items():
            factor = ACTION_LIFT if doc_id in lifted else DESTRUCTIVE_SHARE if doc_id in barred else 1.0
            fresh[doc_id] = word
            if gram_scale:
                # What its gram score must add for the op to reach the threshold.
                gram_needed[doc_id] = max(0.0, (threshold / factor / (1.0 + MARGIN) - word_scale * word) / gram_scale)
        if gram_scale:
            gram_found = grams.at_least(0.0, fresh, gram_needed)
            for doc_id in list(fresh):
                if gram_needed[doc_id] > 0.0 and doc_id not in gram_found:
                    del fresh[doc_id]  # under the threshold whatever its exact score
            gram_scores.update(gram_found)
        word_scores.update(fresh)
        score_known()
        prefix = eligible_from(threshold)
        if len(prefix) >= wanted:
            return Prefix(prefix, final, evidence)
    return None


def _highest(scores: dict[int, float], most: int, share: float) -> tuple[dict[int, float], float]:
    """At most ``most`` of the highest ``scores`` (none at or under ``share`` of the best), and a score that no other exceeds."""
    if len(scores) <= most:
        return dict(scores), 0.0
    ceiling = share * max(scores.values())
    high = list(filter(ceiling.__lt__, scores.values()))
    if len(high) > most:
        high.sort(reverse=True)
        ceiling = high[most]  # those tied with it are left out with it
    keep = list(map(ceiling.__lt__, scores.values()))
    return dict(zip(compress(scores.keys(), keep), compress(scores.values(), keep))), ceiling


def _word_thresholds(threshold: float, word_scale: float, gram_part: float, any_lifted: bool, any_barred: bool) -> dict[float, float] | None:
    """By score factor, the word score an op needs to reach ``threshold``; None when an op with no word could."""
    needed: dict[float, float] = {}
    for factor, present in ((ACTION_LIFT, any_lifted), (1.0, True), (DESTRUCTIVE_SHARE, any_barred)):
        if not present:
            continue
        words_part = threshold / factor / (1.0 + MARGIN) - gram_part
        if words_part <= 0.0:
            return None
        needed[factor] = words_part / word_scale * (1.0 - MARGIN)
    return needed
