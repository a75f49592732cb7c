"""Keyword search within a kind and fuzzy search across kinds."""

from __future__ import annotations

from store_testing import API_SPEC, P1, P2, TASK_SPEC

from opgate.core.store import InvalidValue


def test_keyword_search_ranks_name_hits_first(ws):
    with ws.write() as tx:
        tx.insert("task", {"project_id": P1, "title": "Review hosting costs",
                           "description": "the spec mentions the spec of the spec"})
    with ws.read() as tx:
        rows, total = tx.search("task", "spec")
    assert total == 2
    assert rows[0]["id"] == TASK_SPEC  # "spec" in the title beats three in the description


def test_keyword_search_needs_every_word_and_matches_prefixes(ws):
    with ws.read() as tx:
        assert [r["title"] for r in tx.search("document", "launch annou").rows] == ["Launch announcement"]
        assert tx.search("document", "launch zebra").total == 0
        assert tx.search("document", "  ...  ").total == 0
        # Quotes and operators are plain text, never FTS syntax.
        assert tx.search("document", 'api" spec*').total == 1
        assert tx.search("document", 'NEAR( "spec').total == 0


def test_keyword_search_filters_and_pages(ws):
    with ws.read() as tx:
        assert tx.search("document", "launch", {"project_id": P1}).total == 2
        assert tx.search("document", "launch", {"project_id": P2}).total == 0
        assert tx.search("document", "launch", {"type_key": "document.note"}).total == 2
        rows, total = tx.search("document", "launch", limit=1, offset=1)
        assert total == 2 and len(rows) == 1
        assert tx.search("template", "spec").rows[0]["scope"] == "document"


def test_search_index_follows_updates_and_deletes(ws):
    with ws.write() as tx:
        tx.update("document", API_SPEC, {"title": "Gateway contract", "content": "zeppelin"})
    with ws.read() as tx:
        assert tx.search("document", "zeppelin").rows[0]["id"] == API_SPEC
        assert tx.search("document", "gateway contract").total == 1
        assert all(r["id"] != API_SPEC for r in tx.search("document", "api").rows)
    with ws.write() as tx:
        tx.delete("document", API_SPEC)
    with ws.read() as tx:
        assert tx.search("document", "zeppelin").total == 0
        assert tx.search_all("zeppelin") == []


def test_search_all_tolerates_typos(ws):
    with ws.read() as tx:
        hits = tx.search_all("API Spce")
        assert hits[0]["id"] == API_SPEC
        assert set(hits[0]) == {"kind", "id", "name", "project_id", "score", "snippet"}
        assert 0 < hits[0]["score"] <= 1
        launch = tx.search_all("lanch")
        assert launch and all("aunch" in (h["name"] + h["snippet"]).lower() for h in launch[:3])
        assert tx.search_all("cabnets")[0]["name"] in ("Order cabinets", "Kitchen renovation")


def test_search_all_ranks_best_first_and_filters(ws):
    with ws.read() as tx:
        hits = tx.search_all("launch announcement")
        assert hits[0]["name"] == "Launch announcement"
        assert [h["score"] for h in hits] == sorted((h["score"] for h in hits), reverse=True)
        only_tasks = tx.search_all("launch", kinds=["task"])
        assert only_tasks and {h["kind"] for h in only_tasks} == {"task"}
        assert {h["project_id"] for h in tx.search_all("cabinets", project_id=P2)} == {P2}
        assert tx.search_all("cabinets", project_id=P1) == []
        assert len(tx.search_all("launch", limit=2)) == 2
        assert tx.search_all("") == []
        try:
            tx.search_all("x", kinds=["spaceship"])
        except InvalidValue as exc:
            assert exc.field == "kind"
        else:
            raise AssertionError("an unknown kind must be refused")


def test_search_all_snippet_comes_from_the_long_text(ws):
    with ws.read() as tx:
        hit = next(h for h in tx.search_all("checklist") if h["kind"] == "document")
    assert "checklist" in hit["snippet"]


def test_whole_words_match_only_whole_words(ws):
    with ws.write() as tx:
        made = tx.insert("task", {"project_id": P1, "title": "Quarterly zebrafish census"})["id"]
    with ws.read() as tx:
        prefix = tx.search("task", "zebra census", whole_words=False)
        partial = tx.search("task", "zebra census", whole_words=True)
        whole = tx.search("task", "ZEBRAFISH  census", whole_words=True)
    assert [r["id"] for r in prefix.rows] == [made] and partial.rows == [] and [r["id"] for r in whole.rows] == [made]
