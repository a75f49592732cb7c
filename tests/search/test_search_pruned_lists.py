"""The scored lists behind the pruned top (core/search/_pruned.py), checked against the full walk on random lists.

Each way of finding candidates (required lists, a contribution level, a
count of lists) must return every document at or over the threshold, and
the scores found must be the very floats the walk adds up. Lists are random
but seeded, in the two shapes the index has: word lists (any non-negative
weights) and gram lists (each document's weights a unit vector).
"""

from __future__ import annotations

import math
import random
from array import array

import pytest
from opgate.core import Gateway
from opgate.core.search import _pruned
from opgate.core.search._blocks import (
    SHIFT,
    BlockWalk,
    block_count,
    block_maxima,
    for_queries,
)
from opgate.core.search._lexical import LexicalRanker
from opgate.core.search._list_names import OrdersByName, order_key, order_name
from opgate.core.search._packed import impact_order, pack, unpack
from opgate.core.search._pruned import ScoredLists
from opgate.core.search._unit_bound import unit_most

SHARES = (1.0, 0.99, 0.9, 0.75, 0.5, 0.25, 0.05)


def _word_lists(rng: random.Random, documents: int, count: int) -> ScoredLists:
    lists = []
    for _ in range(count):
        size = rng.randint(1, documents)
        ids = sorted(rng.sample(range(documents), size))
        # Repeated weights, as copies of the same text give.
        weights = [rng.choice((0.2, 0.5, 0.5, 0.9)) * rng.random() + 0.01 for _ in ids]
        lists.append((array("i", ids), array("d", weights), rng.uniform(0.1, 3.0)))
    return ScoredLists(lists, [impact_order(w) for _, w, _ in lists])


def _gram_lists(rng: random.Random, documents: int, grams: int, query: int) -> ScoredLists:
    postings: dict[int, tuple[list[int], list[float]]] = {g: ([], []) for g in range(grams)}
    for doc_id in range(documents):
        held = rng.sample(range(grams), rng.randint(1, grams // 2))
        raw = [rng.random() + 0.05 for _ in held]
        norm = math.sqrt(sum(w * w for w in raw))
        for gram, weight in zip(held, raw):
            postings[gram][0].append(doc_id)
            postings[gram][1].append(weight / norm)
    asked = rng.sample(range(grams), query)
    raw = [rng.random() + 0.1 for _ in asked]
    norm = math.sqrt(sum(w * w for w in raw))
    lists = [(array("i", postings[g][0]), array("d", postings[g][1]), w / norm) for g, w in zip(asked, raw) if postings[g][0]]
    return ScoredLists(lists, [impact_order(w) for _, w, _ in lists], unit=True)


def _check(scored: ScoredLists) -> None:
    walk = scored.everything()
    top = max(walk.values())
    for share in SHARES:
        threshold = top * share
        reaching = {d for d, score in walk.items() if score >= threshold}
        candidates = scored.candidates(threshold)
        assert reaching <= candidates, (share, reaching - candidates)
        found = scored.at_least(threshold, candidates)
        assert found == {d: walk[d] for d in found}
        assert reaching <= set(found)
    best = scored.best(min(walk.values()))
    assert max(best.values()) == top
    assert {d for d, score in walk.items() if score == top} <= set(best)
    only = set(list(walk)[::3])
    assert scored.everything(only) == {d: walk[d] for d in only}
    assert scored.at_least(0.0, walk) == walk


@pytest.mark.parametrize("seed", range(12))
def test_word_lists_find_every_document_over_the_threshold(seed):
    rng = random.Random(seed)
    _check(_word_lists(rng, rng.choice((40, 300, 2000)), rng.randint(1, 5)))


@pytest.mark.parametrize("seed", range(12))
def test_gram_lists_find_every_document_over_the_threshold(seed):
    rng = random.Random(100 + seed)
    grams = rng.choice((12, 30))
    _check(_gram_lists(rng, rng.choice((60, 500, 3000)), grams, rng.randint(2, grams // 2)))


def test_each_way_of_finding_candidates_is_used(monkeypatch):
    """The three conditions all run on these lists, so the checks above cover each of them."""
    used: set[str] = set()
    for name in ("_prefix", "_merged"):
        real = getattr(ScoredLists, name)

        def spy(self, *args, _real=real, _name=name):
            used.add("count" if _name == "_merged" else ("required" if self._required(self._threshold) else "level"))
            return _real(self, *args)

        monkeypatch.setattr(ScoredLists, name, spy)
    real_candidates = ScoredLists.candidates

    def candidates(self, threshold):
        self._threshold = threshold
        return real_candidates(self, threshold)

    monkeypatch.setattr(ScoredLists, "candidates", candidates)
    for seed in range(6):
        rng = random.Random(seed)
        _check(_word_lists(rng, 2000, 3))
        _check(_gram_lists(random.Random(200 + seed), 3000, 30, 14))
    assert used == {"count", "required", "level"}


def test_water_filling_bounds_every_capped_unit_vector():
    rng = random.Random(7)
    for _ in range(300):
        count = rng.randint(1, 8)
        coefficients = [rng.random() for _ in range(count)]
        caps = [rng.random() * rng.choice((0.2, 1.0)) for _ in range(count)]
        most = unit_most(coefficients, caps)
        assert most <= sum(c * cap for c, cap in zip(coefficients, caps)) + 1e-12
        for _ in range(50):
            vector = [rng.random() * cap for cap in caps]
            norm = math.sqrt(sum(x * x for x in vector))
            if norm > 1.0:
                vector = [x / norm for x in vector]
            assert sum(c * x for c, x in zip(coefficients, vector)) <= most * (1.0 + _pruned.MARGIN)


def test_a_rankers_block_maxima_survive_packing():
    """Every list's block maxima read back from the cache's sections as they were built (a table whose columns disagree is refused)."""
    ranker = Gateway(call_log=False).search_index.lexical
    _, sections = ranker.pack()
    back = LexicalRanker.unpacked(ranker.pack()[0], sections.__getitem__)
    for key, (numbers, peaks) in ranker._maxima.items():
        found = back._maxima.get(key)
        assert list(found[0]) == list(numbers) and list(found[1]) == list(peaks), key


def test_impact_orders_survive_packing_with_their_keys():
    keys = [("w", "phone"), ("w", (("numb", 1.0), ("phone", 0.35))), ("g", " ph"), ("g", "[x]")]
    table = {order_name(key): (impact_order(array("d", [0.1 * i, 0.5, 0.3])),) for i, key in enumerate(keys)}
    sections = pack(table, "orders")
    back = {order_key(name): columns[0] for name, columns in unpack(sections.__getitem__, "orders").items()}
    assert back == {key: table[order_name(key)][0] for key in keys}
    by_name = OrdersByName(unpack(sections.__getitem__, "orders"))  # how a ranker read from the cache finds them
    assert all(by_name.get(key) == table[order_name(key)][0] for key in keys) and by_name.get(("w", "absent")) is None
    assert dict(by_name.items()) == back
    assert list(impact_order(array("d", [0.1, 0.5, 0.5, 0.2]))) == [1, 2, 3, 0]


@pytest.mark.parametrize("seed", range(6))
def test_a_walks_scores_answer_as_the_lists_do(seed):
    """Once ``best`` has walked every list, candidates and scores come from the walk: the same answers, thresholds per document included."""
    rng = random.Random(300 + seed)
    make = (lambda: _word_lists(random.Random(seed), 2000, 4)) if seed % 2 else (lambda: _gram_lists(random.Random(seed), 2000, 30, 12))
    fresh, walked = make(), make()
    walk = walked.everything()
    walked.walked = walk
    top = max(walk.values())
    for share in SHARES:
        threshold = top * share
        reaching = {d for d, score in walk.items() if score >= threshold}
        assert reaching <= walked.candidates(threshold) <= fresh.candidates(threshold)
        documents = fresh.candidates(threshold)
        assert walked.at_least(threshold, documents) == fresh.at_least(threshold, documents)
        own = {d: threshold * rng.choice((0.5, 1.0, 1.5)) for d in documents}
        assert walked.at_least(0.0, documents, own) == fresh.at_least(0.0, documents, own)
    assert walked.best(min(walk.values())) == {d: s for d, s in walk.items() if s == top}


def _blocked(scored: ScoredLists, documents: int) -> ScoredLists:
    """The same lists with their block maxima, as the index gives them."""
    blocks = block_count(documents)
    maxima = [for_queries(block_maxima(ids, weights), blocks) for ids, weights, _ in scored.lists]
    return ScoredLists(scored.lists, [None] * len(scored.lists), unit=scored.unit, maxima=maxima, blocks=blocks)


@pytest.mark.parametrize("seed", range(6))
def test_block_maxima_are_each_blocks_largest_weight(seed):
    rng = random.Random(500 + seed)
    for ids, weights, _ in _word_lists(rng, rng.choice((100, 3000)), 6).lists:
        expected: dict[int, float] = {}
        for doc_id, weight in zip(ids, weights):
            expected[doc_id >> SHIFT] = max(expected.get(doc_id >> SHIFT, 0.0), weight)
        numbers, peaks = block_maxima(ids, weights)
        assert dict(zip(numbers, peaks)) == expected
        assert len(numbers) == len(peaks)
        numbers, dense = for_queries((numbers, peaks), block_count(3000))
        assert (dict(zip(numbers, dense)) if len(numbers) else {b: m for b, m in enumerate(dense) if b in expected}) == expected


@pytest.mark.parametrize(("seed", "share"), [(seed, share) for seed in range(8) for share in (0.5, 10.0)])
def test_the_block_walk_finds_the_top_and_answers_as_the_lists_do(monkeypatch, seed, share):
    """Block by block (or, past ``BLOCK_SHARE`` of a walk, by walking): the top, exact scores, a ceiling over every block not scored."""
    monkeypatch.setattr(_pruned, "BLOCK_SHARE", share)
    rng = random.Random(700 + seed)
    documents = rng.choice((500, 3000))
    fresh = _word_lists(random.Random(seed), documents, 4) if seed % 2 else _gram_lists(random.Random(seed), documents, 30, 12)
    blocked = _blocked(fresh, documents)
    walk = fresh.everything()
    top = max(walk.values())
    assert blocked.best(min(walk.values())) == {d: s for d, s in walk.items() if s == top}
    scores, ceiling = blocked.known()
    assert all(walk[d] == score for d, score in scores.items())
    scored_blocks = blocked.blocks.scored if blocked.blocks is not None else None
    assert all(score <= ceiling for d, score in walk.items() if scored_blocks is not None and d >> SHIFT not in scored_blocks)
    for threshold in (top * s for s in SHARES):
        reaching = {d for d, score in walk.items() if score >= threshold}
        assert reaching <= blocked.candidates(threshold)
        documents_asked = fresh.candidates(threshold) | set(rng.sample(sorted(walk), min(50, len(walk))))
        assert blocked.at_least(threshold, documents_asked) == fresh.at_least(threshold, documents_asked)
        own = {d: threshold * rng.choice((0.0, 0.5, 1.0, 1.5)) for d in documents_asked}
        assert blocked.at_least(0.0, documents_asked, own) == fresh.at_least(0.0, documents_asked, own)
    # Block by block, every op of a block gets the walk's very float, whatever the blocks scored with it.
    walker = BlockWalk(fresh.lists, blocked.maxima, blocked.block_total, _pruned.MARGIN)
    chunk = sorted(rng.sample(range(blocked.block_total), min(5, blocked.block_total)))
    assert walker.score_blocks(chunk) == {d: s for d, s in walk.items() if d >> SHIFT in set(chunk)}
    assert all(bound >= max((s for d, s in walk.items() if d >> SHIFT == block), default=0.0) for block, bound in enumerate(walker.bounds))
