"""The best ops of a query, found without scoring every op that shares a word with it.

The full ranking (:meth:`SearchIndex._ranked_one`) scores every matching op:
at 100,000 ops that is tens of thousands of ops a query, for a page of ten.
This finds the same first ops, with the same scores, from a few thousand:

1. The divisors. The fused score divides each ranker's score by its best
   (:func:`._lexical._mix`), so both bests must be exact. Each is the top of
   one sum of posting lists, found block by block (:mod:`._blocks`): ops
   are cut into blocks of 64 ids, each list keeps its largest weight in each
   block, and blocks are scored whole, highest bound first, until the next
   bound is under the best score found.
2. The top of the final score. Each block's bound on the final score is
   ``word_scale * its word bound + gram_scale * its gram bound``, times
   ``ACTION_LIFT`` where it holds a lifted op (the rules multiply a score by
   ``ACTION_LIFT``, 1 or ``DESTRUCTIVE_SHARE``). Blocks are read highest
   bound first: word scores from the block's word postings, an op's gram
   score only while it can still lift the op to the threshold ``t``, the
   ``wanted``-th best final score among the ops scored that pass the
   filters. Once the next block's bound is under ``t``, no op left can reach
   it.
3. Every op at or over ``t`` is then scored: those that pass the filters,
   best first, are the exact start of the full ranking. They are remembered
   with their scores (the head): a repeated query whose filters let
   ``wanted`` of them through answers from the head alone.

When that cannot work (no word of the query is indexed, bounds so loose
that the blocks would read more than a walk), :func:`best_prefix` answers
None and the caller walks everything, as before.

Where numpy is installed, steps 1 to 3 give way to dense sums
(:mod:`._dense`): every posting of the query's lists added in C, the same
floats, the same prefix and head, in a few milliseconds at 100,000 ops
where reading blocks in Python took 5 to 25 for a new query.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable
from itertools import compress, repeat
from operator import le, or_, rshift

from ._blocks import CHUNK, SHIFT, fused_order
from ._dense import dense_prefix
from ._lexical import NGRAM_SHARE, LexicalMatch, LexicalRanker
from ._prefix import Prefix
from ._pruned import MARGIN
from ._rules import ACTION_LIFT, DESTRUCTIVE_SHARE

# Under this many ops, walking every posting is as fast or faster (bench_search_scale.py: 3.6 ms CPU for the walk at 10,000 ops, 4.7 pruned).
PRUNE_FROM_OPS = 20_000
# Relative slack of the word floors of a block (:func:`best_prefix`'s ``word_floors``): far over the rounding of their arithmetic.
FLOOR_SLACK = 1e-9
# Blocks are scored for the top of the final scores until this share of a walk of every list was read; then the full walk.
FUSED_SHARE = 0.5


def best_prefix(
    lexical: LexicalRanker,
    query: str,
    factors: tuple[frozenset[int], frozenset[int]],
    passes: Callable[[int], bool],
    min_evidence: float,
    wanted: int,
    *,
    dense: bool = False,
) -> Prefix | None:
    """At least ``wanted`` ops (fewer only if fewer pass), exactly as the full ranking orders them; None to walk everything.

    ``dense``: numpy is installed, so every posting is added in C (:mod:`._dense`) instead of steps 1 to 3.
    """
    if dense:
        summed = lexical.summed_lists(query)
        if not summed.words:
            return None
        head = lexical.remembered_head((summed.key, factors))
        found = _from_head(head, summed.ceiling, passes, min_evidence, wanted) if head is not None else None
        if found is not None:
            return found
        summed_top = dense_prefix(lexical, summed, factors, passes, min_evidence, wanted)
        if summed_top is None:
            return None
        found, head = summed_top
        if head:
            lexical.remember_head((summed.key, factors), head)
        return found
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

    head_key = (lists.key, factors)
    head = lexical.remembered_head(head_key)
    if head is not None:
        found = _from_head(head, lists.ceiling, passes, min_evidence, wanted)
        if found is not None:
            return found
    # 1. The best word score, then the best gram score, exactly (kept for the same lists: a repeated query).
    remembered = lexical.remembered_tops(lists.key)
    if remembered is not None:
        word_scores.update(remembered[0])
        gram_scores.update(remembered[1])
    else:
        known_words(set(lists.word_peaks))
        word_scores.update(words.best(max(word_scores.values())))
        if grams:
            known_grams(set(word_scores) | set(lists.gram_peaks))
            seed = max(gram_scores.values(), default=0.0)
            if seed > 0.0:
                gram_scores.update(grams.best(seed))
        known_grams(set(word_scores))
        known_words(set(gram_scores))
        lexical.remember_tops(lists.key, word_scores, gram_scores)
    best_word = max(word_scores.values())
    best_gram = max(gram_scores.values(), default=0.0)
    word_scale = (1.0 - NGRAM_SHARE) / best_word
    gram_scale = NGRAM_SHARE / best_gram if best_gram > 0.0 else 0.0
    lifted, barred = factors
    match = LexicalMatch({}, word_scores, gram_scores, lists.ceiling)
    final: dict[int, float] = {}

    def score(docs: Iterable[int]) -> list[int]:
        """Final scores of ``docs`` not scored yet (both lanes' scores known); the ones newly scored."""
        added = []
        for doc_id in docs:
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
            added.append(doc_id)
        return added

    score(set(word_scores) | set(gram_scores))
    evidence: dict[int, float] = {}
    verdicts: dict[int, bool] = {}

    def eligible(doc_id: int) -> bool:
        # Asked of the best ops only: the filters read the op's record, which a cached registry decodes on demand.
        verdict = verdicts.get(doc_id)
        if verdict is None:
            evidence[doc_id] = match.coverage(doc_id)
            verdict = verdicts[doc_id] = evidence[doc_id] >= min_evidence and passes(doc_id)
        return verdict

    def factor(doc_id: int) -> float:
        return ACTION_LIFT if doc_id in lifted else DESTRUCTIVE_SHARE if doc_id in barred else 1.0

    def scored_blocks(chunk: list[int], threshold: float) -> list[int]:
        """The ops of these blocks that may reach ``threshold``, both lane scores known (the others cannot reach it).

        Word scores come from the blocks' word postings; an op's gram score is
        looked up only while it can still lift the op to the threshold. Where
        the gram part alone could reach it, the block's gram postings are read
        whole, for the ops that no word list holds.
        """
        found = word_walk.score_blocks(chunk)
        whole = [b for b in chunk if gram_walk is not None and gram_scale * gram_walk.bounds[b] * (ACTION_LIFT if b in lifted_blocks else 1.0) >= threshold]
        ready = set()
        if whole:
            gram_scores.update(gram_walk.score_blocks(whole))
            whole_set = set(whole)
            ready = {d for d in gram_scores if d >> SHIFT in whole_set}
            word_scores.update((d, found[d]) for d in ready if d in found)
        # An op whose word score falls short even with the lift and its block's gram bound cannot reach the
        # threshold: dropped with comparisons run in C, before any work per op (most of a block's ops).
        # The floor of a lifted block holds for its lifted ops only; the others must reach the plain one.
        plain, lowest = word_floors(chunk, threshold, 1.0), word_floors(chunk, threshold, ACTION_LIFT)
        candidates = list(compress(found, map(le, map(lowest.__getitem__, map(rshift, found, repeat(SHIFT))), found.values())))
        if lifted and candidates:
            reach = map(le, map(plain.__getitem__, map(rshift, candidates, repeat(SHIFT))), map(found.__getitem__, candidates))
            candidates = list(compress(candidates, map(or_, reach, map(lifted.__contains__, candidates))))
        rest = [d for d in candidates if d not in ready and d not in final]
        if not gram_scale:
            word_scores.update((d, found[d]) for d in rest)
            return list(ready) + rest
        needed = {d: max(0.0, (threshold / factor(d) / (1.0 + MARGIN) - word_scale * found[d]) / gram_scale) for d in rest}
        looked = grams.at_least(0.0, rest, needed)
        kept = [d for d in rest if d in looked or needed[d] <= 0.0]
        word_scores.update((d, found[d]) for d in kept)
        gram_scores.update(looked)
        return list(ready) + kept

    def word_floors(chunk: list[int], threshold: float, most: float) -> dict[int, float]:
        """Per block, a word score under which none of its ops lifted by at most ``most`` reaches ``threshold`` (looser than the check per op, so it drops no op that check keeps)."""
        floors = {}
        for block in chunk:
            lift = most if block in lifted_blocks else 1.0
            gram_most = gram_scale * gram_walk.bounds[block] / (1.0 - MARGIN) if gram_walk is not None else 0.0
            floors[block] = (threshold / lift / (1.0 + MARGIN) - gram_most) / word_scale * (1.0 - FLOOR_SLACK)
        return floors

    # The ``wanted`` best final scores of eligible ops known so far (a min-heap): its least is the threshold.
    best: list[float] = []

    def consider(docs: Iterable[int]) -> None:
        for doc_id in sorted(docs, key=final.__getitem__, reverse=True):
            score_of = final[doc_id]
            if len(best) == wanted and score_of <= best[0]:
                return
            if eligible(doc_id):
                (heapq.heappush if len(best) < wanted else heapq.heapreplace)(best, score_of)

    consider(final)
    # 2. Blocks by their bound on the final score, highest first, until the next bound is under the
    # wanted-th best eligible score: no op left unscored can reach it.
    word_walk = words.block_walk()
    gram_walk = grams.block_walk() if grams else None
    if word_walk is None:
        return None
    lifted_blocks = lexical.blocks_of(lifted)
    bounds, order = fused_order(word_walk, gram_walk, word_scale, gram_scale, lifted_blocks, ACTION_LIFT, MARGIN)
    budget = FUSED_SHARE * (words.postings + grams.postings)
    start = word_walk.read + (gram_walk.read if gram_walk is not None else 0)
    at = 0
    while at < len(order):
        threshold = best[0] if len(best) == wanted else 0.0
        if bounds[order[at]] < threshold:
            break
        if word_walk.read + (gram_walk.read if gram_walk is not None else 0) - start > budget:
            return None  # bounds too loose to save a walk
        chunk = []
        while at < len(order) and len(chunk) < CHUNK and bounds[order[at]] >= threshold:
            chunk.append(order[at])
            at += 1
        chunk.sort()
        consider(score(scored_blocks(chunk, threshold)))
    # 3. Every op at or over the threshold is scored: those that pass the filters, best first, start the full ranking.
    threshold = best[0] if len(best) == wanted else 0.0
    prefix = sorted((d for d in final if final[d] >= threshold and eligible(d)), key=lambda d: (-final[d], d))
    if len(prefix) < wanted and at < len(order):
        return None
    if threshold > 0.0:
        # Every op scoring at least the threshold, eligible or not: a repeated request starts (and most often ends) there.
        lexical.remember_head(head_key, {d: (score, word_scores.get(d), gram_scores.get(d)) for d, score in final.items() if score >= threshold})
    return Prefix(prefix, final, evidence)


def _from_head(head: dict[int, tuple[float, float | None, float | None]], ceiling: float, passes: Callable[[int], bool], min_evidence: float, wanted: int) -> Prefix | None:
    """The prefix from a remembered head (every op at or over some threshold, with its scores), if ``wanted`` of its ops pass the filters.

    Then the wanted-th best eligible score is at or over the head's
    threshold, so every op that reaches it is in the head.
    """
    match = LexicalMatch({}, {d: w for d, (_, w, _) in head.items() if w is not None}, {d: g for d, (_, _, g) in head.items() if g is not None}, ceiling)
    scores = {d: score for d, (score, _, _) in head.items()}
    evidence: dict[int, float] = {}
    order = []
    for doc_id in sorted(scores, key=lambda d: (-scores[d], d)):
        if len(order) >= wanted and scores[doc_id] < scores[order[-1]]:
            break
        evidence[doc_id] = match.coverage(doc_id)
        if evidence[doc_id] >= min_evidence and passes(doc_id):
            order.append(doc_id)
    if len(order) < wanted:
        return None
    return Prefix(order, scores, evidence)
