"""Related terms that ops hold together get their stand-in sets prepared at build time, with the scores combining them gives."""

from __future__ import annotations

from opgate.core.search._fields import OpText
from opgate.core.search._lexical import PAIR_SHARE, LexicalRanker
from opgate.core.search._related import RelatedTerms


def _text(name: str, summary: str) -> OpText:
    return OpText(name=name, summary=summary, description="", details="", arguments=(), tags="")


def _ranker(held_together: int, size: int = 200) -> LexicalRanker:
    texts = [_text(f"op{n}", "buy a phone number" if n < held_together else ("place a phone call" if n % 2 else "count the digits of a number")) for n in range(size)]
    return LexicalRanker(texts, RelatedTerms(["phone number digits", "phone call telephone"]))


def test_a_pair_held_together_is_prepared_and_scores_as_combined_at_query_time():
    ranker = _ranker(held_together=200 // PAIR_SHARE + 1)
    lists = ranker.words.query_lists(ranker.related.expand(ranker.query_terms("phone number")))
    assert [key for key, *_ in lists] == [(("call", 0.5), ("digit", 0.5), ("phone", 1.0)), (("digit", 0.5), ("number", 1.0))]
    assert not ranker.words._recent, "combined at query time although prepared"
    for shares, ids, saturated, _ in lists:
        _, (combined_ids, combined) = ranker.words._combine(shares)
        assert (list(ids), list(saturated)) == (list(combined_ids), list(combined))


def test_a_pair_too_few_ops_hold_is_combined_at_query_time():
    ranker = _ranker(held_together=1, size=400)
    ranker.words.query_lists(ranker.related.expand(ranker.query_terms("phone number")))
    assert ranker.words._recent
