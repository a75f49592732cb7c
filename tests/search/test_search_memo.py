"""What a search index remembers per request (its reading and its query terms): bounded, per index, never a different answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from opgate.core import Gateway, build_registry
from opgate.core.catalog import load_catalog
from opgate.core.search import SearchIndex
from opgate.core.search._index import INTENT_MEMO
from opgate.core.search._lexical import QUERY_TERMS_MEMO


def _index(folder: Path, tools: list[tuple[str, str]]) -> SearchIndex:
    """An index over a small catalogue of ``(op, description)`` tools."""
    catalogue = {"tools": [{"name": op.replace(".", "_"), "op": op, "description": text, "parameters": {"type": "object", "properties": {}}} for op, text in tools]}
    path = folder / "catalogue.json"
    path.write_text(json.dumps(catalogue), encoding="utf-8")
    return SearchIndex.build(build_registry(load_catalog(path)))


def _answer(index: SearchIndex, query: str) -> list[tuple[str, float, dict | None]]:
    return [(h.op, h.confidence, h.suggested_args) for h in index.search(query, limit=10)]


def test_a_repeated_request_answers_as_the_first_time(gateway: Gateway):
    index = gateway.search_index
    requests = ["mark the permit task done", "create a task and link it to the goal", "delete the old plan", "taks for this week", "list the goals"]
    first = [_answer(index, q) for q in requests]
    assert [_answer(index, q) for q in requests] == first
    # A fresh index over the same ops, which remembers nothing yet, answers the same.
    fresh = SearchIndex.build(gateway.registry)
    assert fresh.read_request.cache_info().currsize == 0
    assert [_answer(fresh, q) for q in requests] == first


def test_the_memories_are_bounded(gateway: Gateway):
    index = SearchIndex.build(gateway.registry)
    assert index.read_request.cache_info().maxsize == INTENT_MEMO
    assert index.read_facet.cache_info().maxsize == INTENT_MEMO
    assert index.lexical._remembered_terms.cache_info().maxsize == QUERY_TERMS_MEMO
    for number in range(max(INTENT_MEMO, QUERY_TERMS_MEMO) + 50):
        index.search(f"create a task and list the goals {number}", limit=3)
    assert index.read_request.cache_info().currsize == INTENT_MEMO
    assert index.read_facet.cache_info().currsize <= INTENT_MEMO
    assert index.lexical._remembered_terms.cache_info().currsize == QUERY_TERMS_MEMO


def test_query_terms_are_a_new_dict_each_time(gateway: Gateway):
    lexical = gateway.search_index.lexical
    terms = lexical.query_terms("list the open tasks")
    terms["zzz"] = 5.0
    assert "zzz" not in lexical.query_terms("list the open tasks")


def test_each_index_reads_with_its_own_words(tmp_path: Path):
    """A reading depends on the index's words (the speller, misspelt verbs): one index's memory never answers for another."""
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    with_past = _index(tmp_path / "a", [("news.post.create", "Post a news item"), ("news.past.list", "List past news items"), ("news.goal.list", "List the goals")])
    without_past = _index(tmp_path / "b", [("news.post.create", "Post a news item"), ("news.goal.list", "List the goals"), ("news.item.list", "List news items")])
    request = "find the items and past goals"
    assert with_past.read_request(request).facets == ("find the items", "find past goals")
    # Here "past" is no word of the catalogue: read as the misspelt verb "post".
    assert without_past.read_request(request).facets == ("find the items", "post goals")
    assert with_past.read_request(request).facets == ("find the items", "find past goals")
    # Query terms too: a word an index lacks is corrected against that index's words.
    assert "past" in with_past.lexical.query_terms("pastt news")
    assert "past" not in without_past.lexical.query_terms("pastt news")


@pytest.mark.parametrize("query", ["", "   ", "and", "with, and; then"])
def test_requests_with_nothing_to_cut_at_or_only_glue(gateway: Gateway, query: str):
    index = gateway.search_index
    assert index.search(query, limit=5) == index.search(query, limit=5)
