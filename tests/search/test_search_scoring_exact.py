"""The fast scoring paths give bit-identical scores to a plain per-posting walk.

BM25F, trigram cosine, their mix and the safety rule take their products in C
(``map``) and skip work where they can; rankings must not move. Each is
compared here with the straightforward loop it replaced, on every built-in
request over the built-in catalogue and over a 3,000-op catalogue made of
Twilio's real operations (two renamed copies, as bench/_scaled_catalog.py does).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from opgate.core import Gateway, build_registry
from opgate.core.catalog import load_catalog
from opgate.core.search import SearchIndex
from opgate.core.search._lexical import NGRAM_SHARE, _content_words, _mix
from opgate.core.search._ngrams import grams
from opgate.core.search._rules import ACTION_LIFT, DESTRUCTIVE_SHARE, Adjusted

REPO = Path(__file__).resolve().parents[2]
REQUESTS = REPO / "bench" / "data" / "builtin_requests.json"
TWILIO = REPO.parent / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"


def _requests() -> list[str]:
    data = json.loads(REQUESTS.read_text(encoding="utf-8"))
    return [r["query"] for part in ("tune", "heldback") for r in data[part]]


def _bm25_walk(bm25, query) -> dict[int, float]:
    scores: dict[int, float] = {}
    for alternatives in query:
        present = [(t, w) for t, w in alternatives.items() if t in bm25.postings]
        if not present:
            continue
        query_weight = max(alternatives.values())
        if len(present) == 1 and present[0][1] == query_weight:
            weight = query_weight * bm25.idf[present[0][0]]
            ids, saturated = bm25.postings[present[0][0]][:2]
        else:
            shares = tuple(sorted((t, w / query_weight) for t, w in present))
            idf, (ids, saturated) = bm25._combined.get(shares) or bm25._combine(shares)
            weight = query_weight * idf
        for doc_id, value in zip(ids, saturated):
            scores[doc_id] = scores.get(doc_id, 0.0) + weight * value
    return scores


def _grams_walk(ngrams, words) -> dict[int, float]:
    query = {g: (1.0 + math.log(c)) * ngrams.idf[g] for g, c in grams(words).items() if g in ngrams.idf}
    norm = math.sqrt(sum(w * w for w in query.values()))
    scores: dict[int, float] = {}
    if not norm:
        return scores
    for gram, weight in query.items():
        for doc_id, doc_weight in zip(*ngrams.postings[gram]):
            scores[doc_id] = scores.get(doc_id, 0.0) + weight / norm * doc_weight
    return scores


def _mix_walk(first, first_share, second, second_share) -> dict[int, float]:
    first_best = max(first.values(), default=0.0)
    first_scale = first_share / first_best if first_best > 0.0 else 0.0
    mixed = {d: first_scale * s for d, s in first.items()}
    second_best = max(second.values(), default=0.0)
    if second_best > 0.0:
        for d, s in second.items():
            mixed[d] = mixed.get(d, 0.0) + second_share / second_best * s
    return mixed


def _assert_exact(index: SearchIndex, queries: list[str]) -> None:
    lexical = index.lexical
    for query in queries:
        expanded = lexical.related.expand(lexical.query_terms(query))
        words = lexical.words.scores(expanded)
        assert words == _bm25_walk(lexical.words, expanded), query
        # Twice: the second time the stand-ins combined at query time come from the kept ones.
        assert lexical.words.scores(expanded) == words, query
        content = _content_words(query)
        grams_found = lexical.ngrams.scores(content)
        assert grams_found == _grams_walk(lexical.ngrams, content), query
        fused = _mix(words, 1.0 - NGRAM_SHARE, grams_found, NGRAM_SHARE)
        assert fused == _mix_walk(words, 1.0 - NGRAM_SHARE, grams_found, NGRAM_SHARE), query
        assert fused == lexical.match(query).fused, query
        intent = index.intents.read_request(query)
        query_terms = set(lexical.query_terms(query))
        assert index.rules.apply(intent, query_terms, fused, lambda d: True) == _rules_walk(index.rules, intent, query_terms, fused), query


def _rules_walk(rules, intent, query_terms, scores) -> Adjusted:
    scores = dict(scores)
    named = set()
    for term in query_terms:
        ops = rules._by_action_term.get(term, [])
        # The verb's ops on the entities the request names (and on entities it has no words for), if there are any.
        on_named = [d for d in ops if intent.entities and (d not in rules._entity_of or rules._entity_of[d] in intent.entities)]
        if intent.entities and any(d in rules._entity_of for d in on_named):
            named.update(on_named)
        else:
            named.update(ops)
    if rules._structured:
        for doc_id in named:
            if doc_id in scores:
                scores[doc_id] *= ACTION_LIFT
    barred: frozenset[int] = frozenset()
    if not intent.asks_removal:
        barred = frozenset(d for d in rules.destructive if d not in named)
        for doc_id in barred:
            if doc_id in scores:
                scores[doc_id] *= DESTRUCTIVE_SHARE
    suggested = {}
    first = None
    if intent.state:
        target = rules._state_target(intent, scores, lambda d: True)
        if target is not None:
            doc_id, field, value = target
            suggested[doc_id] = {field: value}
            scores[doc_id] = max(scores.values(), default=1.0) or 1.0
            first = doc_id
    return Adjusted(scores, suggested, first, barred)


def test_builtin_requests_score_exactly_as_a_plain_walk():
    _assert_exact(Gateway(call_log=False).search_index, _requests())


@pytest.fixture(scope="module")
def twilio_twice(tmp_path_factory) -> SearchIndex:
    if not TWILIO.exists():
        pytest.fail(f"shared test data is missing: {TWILIO}")
    data = json.loads(TWILIO.read_text(encoding="utf-8"))
    tools = list(data["tools"])
    for tool in data["tools"]:
        product, _, operation = tool["op"].partition(".")
        tools.append({**tool, "name": f"{tool['name']}_r1", "op": f"{product}_r1.{operation}"})
    path = tmp_path_factory.mktemp("twilio") / "twilio_x2.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return SearchIndex.build(build_registry(load_catalog(path)))


def test_a_generated_catalogue_scores_exactly_as_a_plain_walk(twilio_twice):
    assert len(twilio_twice.records) > 2800
    queries = _requests() + [
        "send an sms to a phone number",
        "list recordings of a call",
        "delete a conference participant",
        "buy a phone number",
        "verify a user with a code",
        "fetch the message body",
        "update the webhook url of a service",
        "recieve faxes",  # a typo
        "remove every queue member",
    ]
    assert len(queries) >= 300
    _assert_exact(twilio_twice, queries)
