"""The discovery protocol: list, search_tool_by_category, search_nodes, expand_tool, call_tool, and the search tool."""

from __future__ import annotations

import pytest

from opgate.core import Gateway


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    yield gateway
    gateway.close()


def test_list_root_and_a_group(gateway):
    root = gateway.discovery.list()
    assert [n["name"] for n in root["nodes"]] == ["onto", "util"] and root["tools"] == []
    task = gateway.discovery.list(["onto", "task"])
    assert {t["tool_id"] for t in task["tools"]} >= {"onto.task.list", "onto.task.create"}
    assert gateway.discovery.list("onto.task")["tools"] == task["tools"]


def test_list_pages_with_opaque_cursors(gateway):
    first = gateway.discovery.list(["onto", "task"], limit=2)
    assert len(first["tools"]) == 2 and first["next_cursor"]
    second = gateway.discovery.list(["onto", "task"], limit=2, cursor=first["next_cursor"])
    assert not {t["tool_id"] for t in first["tools"]} & {t["tool_id"] for t in second["tools"]}
    wrong = gateway.discovery.list(["onto", "goal"], limit=2, cursor=first["next_cursor"])
    assert wrong["ok"] is False
    assert gateway.discovery.list(["onto", "task"], cursor="garbage")["ok"] is False


def test_list_with_query_and_tags(gateway):
    ranked = gateway.discovery.list(["onto"], query="move a document into a folder", limit=3)
    assert ranked["tools"][0]["tool_id"] == "onto.document.tree.move"
    assert 0 <= ranked["tools"][0]["confidence"] <= 1
    tagged = gateway.discovery.list(["onto", "task"], tags=["destructive"])
    assert [t["tool_id"] for t in tagged["tools"]] == ["onto.task.delete"]


def test_unknown_path(gateway):
    error = gateway.discovery.list(["onto", "tsak"])["error"]
    assert error["code"] == "UNKNOWN_PATH" and ["onto", "task"] in error["hints"]
    assert error["next_action"].startswith("list(")


def test_search_by_category_and_no_match(gateway):
    found = gateway.discovery.search_tool_by_category("remove", ["onto", "task"], limit=2)
    assert found["results"][0]["tool_id"] == "onto.task.delete"
    missing = gateway.discovery.search_tool_by_category("weather forecast for tomorrow", ["onto", "task"])
    assert missing["error"]["code"] == "NO_MATCH_IN_CATEGORY"
    assert missing["error"]["hints"] and missing["error"]["next_action"].startswith("search_tool_by_category")


def test_search_nodes(gateway):
    hits = gateway.discovery.search_nodes("folders of documents", limit=3)["results"]
    assert hits[0]["path"][:2] == ["onto", "document"]
    assert all(0 <= h["confidence"] <= 1 for h in hits)


def test_expand_tool_and_not_found(gateway):
    expanded = gateway.discovery.expand_tool("onto.project.create")
    assert expanded["args_schema"]["required"] == ["project", "entities", "relationships"]
    assert expanded["policy"]["do"]
    assert gateway.discovery.expand_tool("create_onto_project")["tool_id"] == "onto.project.create"
    missing = gateway.discovery.expand_tool("onto.project.creat")
    assert missing["error"]["code"] == "TOOL_NOT_FOUND" and missing["error"]["hints"][0] == "onto.project.create"


def test_call_tool_goes_through_exec(gateway):
    assert gateway.discovery.call_tool("onto.project.list", {})["ok"]
    denied = gateway.discovery.call_tool("onto.task.create", {"project_id": "10000000-0000-4000-8000-000000000001", "title": "x"})
    assert denied["error"]["code"] == "PERMISSION_DENIED"
    assert denied["error"]["protocol"]["code"] == "NOT_AUTHORIZED"
    assert gateway.discovery.call_tool("onto.task.create", {"project_id": "10000000-0000-4000-8000-000000000001", "title": "x"}, dry_run=True)["ok"]


def test_scopes_hide_ops_from_every_discovery_call(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", context="global")
    assert gateway.discovery.expand_tool("onto.task.create")["error"]["code"] == "TOOL_NOT_FOUND"
    assert all(r["op"] != "onto.task.create" for r in gateway.search("create a task", limit=50)["results"])
    assert all(t["tool_id"] != "onto.task.create" for t in gateway.discovery.list(["onto", "task"])["tools"])
    gateway.close()


def test_search_tool_answer(gateway):
    answer = gateway.search("list my open tasks", limit=3)
    assert answer["ok"] and {r["op"] for r in answer["results"]} & {"onto.task.list", "onto.task.search"}
    assert set(answer["results"][0]) == {"op", "tool_name", "summary", "confidence", "kind"}
    paged = gateway.search("task", limit=2)
    assert paged["next_cursor"]
    more = gateway.search("task", limit=2, cursor=paged["next_cursor"])
    assert more["results"] and more["results"][0]["op"] != paged["results"][0]["op"]
    assert gateway.search("task", path="onto.nope")["error"]["code"] == "UNKNOWN_PATH"
    assert gateway.search("")["error"]["code"] == "VALIDATION_ERROR"
    assert gateway.search("xyzzy qwertz")["results"] == []
