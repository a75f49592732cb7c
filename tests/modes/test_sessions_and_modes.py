"""One Gateway, many callers: each ToolRouter carries its caller's Session and mode (for hosts embedding opgate)."""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.config import SERVE_MODES
from opgate.core.exec import Session, SessionTable
from opgate.core.modes import PROTOCOL_TOOLS, RETRY_LIMIT, ROUTER_MODES, TYPED_LANE_BYTES, ToolRouter
from opgate.core.modes._hybrid import LIST_MAX_BYTES

NOVEL = "10000000-0000-4000-8000-000000000002"


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    yield gateway
    gateway.close()


def routers(gateway, mode=None, count=2):
    return [ToolRouter(gateway, mode=mode, session=Session(caller=f"caller-{i}")) for i in range(count)]


def test_callers_of_one_gateway_keep_their_own_current_project(gateway):
    a, b = routers(gateway)
    assert a.call("exec", {"op": "onto.project.get", "args": {"project_id": NOVEL}})["ok"]
    theirs = b.call("exec", {"op": "onto.task.create", "args": {"title": "B has no current project"}})
    assert theirs["error"]["code"] == "VALIDATION_ERROR"
    mine = a.call("exec", {"op": "onto.task.create", "args": {"title": "A's current project"}})
    assert mine["result"]["task"]["project_id"] == NOVEL
    assert gateway.session.known == {}, "the gateway's own session saw none of it"


def test_batch_and_call_tool_run_in_the_callers_session(gateway):
    a, b = routers(gateway)
    steps = [{"tool": "exec", "args": {"op": "onto.project.get", "args": {"project_id": NOVEL}}}]
    assert a.call("batch", {"steps": steps})[0]["ok"]
    assert a.session.known == {"project_id": NOVEL} and b.session.known == {}
    assert b.call("call_tool", {"tool_id": "onto.project.get", "arguments": {"project_id": NOVEL}})["ok"]
    assert b.session.known == {"project_id": NOVEL}


def test_idempotency_keys_are_scoped_by_the_sessions_caller(gateway):
    a, b = routers(gateway)
    call = {"op": "onto.task.create", "args": {"project_id": NOVEL, "title": "keyed"}, "idempotency_key": "k1"}
    first, other, again = a.call("exec", call), b.call("exec", call), a.call("exec", call)
    assert other["result"]["task"]["id"] != first["result"]["task"]["id"]
    assert again["meta"]["idempotent_replay"] is True and again["result"]["task"]["id"] == first["result"]["task"]["id"]


def test_each_mode_offers_its_tools_and_corrects_the_others(gateway):
    offered = {mode: [t.name for t in ToolRouter(gateway, mode=mode).tools()] for mode in ROUTER_MODES}
    assert offered["gateway"] == ["help", "exec", "batch", "search"]
    assert offered["hybrid"] == ["list_tools", "run_tool"]
    assert offered["protocol"] == [t.name for t in PROTOCOL_TOOLS] == ["list", "search_tool_by_category", "search_nodes", "expand_tool", "call_tool"]
    assert "onto__task__list" in offered["full"] and offered["full"] == offered["deferred"]
    hybrid = ToolRouter(gateway, mode="hybrid")
    wrong = hybrid.call("exec", {"op": "onto.project.list"})
    assert wrong["error"]["code"] == "NOT_FOUND" and wrong["error"]["details"]["unknown_tool"] is True
    assert "list_tools" in wrong["error"]["message"] and "run_tool" in wrong["error"]["message"]
    assert hybrid.call("onto__project__list", {})["ok"], "a typed op outside the lane still runs, through exec"
    protocol = ToolRouter(gateway, mode="protocol")
    assert "expand_tool" in protocol.call("run_tool", {"name": "onto.project.list"})["error"]["message"]
    assert ToolRouter(gateway, mode="gateway").call("onto__project__list", {})["error"]["details"]["unknown_tool"] is True
    with pytest.raises(ValueError, match="mode is one of"):
        ToolRouter(gateway, mode="adaptive")


def test_the_config_file_and_the_router_know_the_same_modes():
    assert SERVE_MODES == ROUTER_MODES


def test_list_tools_with_schemas_promotes_the_ops_into_the_lane(gateway):
    router, other = routers(gateway, "hybrid")
    listed = router.call("list_tools", {"category": "onto.document.tree", "detail": "schema"})
    assert listed["ok"] and all("arguments_schema" in line for line in listed["tools"])
    lane = [t.name for t in router.tools()]
    assert {"onto__document__tree__move", "onto__document__tree__get"} <= set(lane) and lane[-2:] == ["list_tools", "run_tool"]
    assert [t.name for t in other.tools()] == ["list_tools", "run_tool"], "another caller's lane is its own"
    summary = router.call("list_tools", {"category": "onto.task"})
    assert "arguments_schema" not in summary["tools"][0]
    assert router.call("list_tools", {"detail": "everything"})["error"]["code"] == "VALIDATION_ERROR"


def test_list_tools_with_schemas_stays_in_its_byte_budget(gateway):
    router = ToolRouter(gateway, mode="hybrid", session=Session())
    answer = router.call("list_tools", {"limit": 50, "detail": "schema"})
    size = len(json.dumps(answer["tools"], separators=(",", ":")))
    assert answer["truncated_by_bytes"] is True and 1 <= len(answer["tools"]) < 50
    assert size <= TYPED_LANE_BYTES and answer["next_offset"] == len(answer["tools"])
    following = router.call("list_tools", {"limit": 50, "detail": "schema", "offset": answer["next_offset"]})
    assert following["tools"][0]["name"] not in {line["name"] for line in answer["tools"]}
    summaries = router.call("list_tools", {"limit": 50})
    assert len(json.dumps(summaries["tools"], separators=(",", ":"))) <= LIST_MAX_BYTES


def test_identical_malformed_calls_get_a_bounded_retry_hint(gateway):
    router = ToolRouter(gateway, mode="hybrid")
    bad = {"name": "onto.task.get", "arguments": {"task_id": 7}}
    errors = [router.call("run_tool", bad)["error"] for _ in range(RETRY_LIMIT + 2)]
    assert "retry" not in errors[0]
    assert [e["retry"]["attempt"] for e in errors[1:]] == [2, 3, 4, 5]
    assert [e["retry"]["stop"] for e in errors[1:]] == [False, False, True, True]
    assert all(len(e["retry"]["hint"]) < 300 for e in errors[1:]), "the hint stays short however often the call repeats"
    assert "cannot work" in errors[-1]["retry"]["hint"]
    # A different call starts the count again.
    other = router.call("run_tool", {"name": "onto.task.get", "arguments": {"task_id": 8}})["error"]
    assert "retry" not in other


def test_a_session_forgets_old_inspections_past_its_bound():
    session = Session()
    for i in range(100):
        session.note_inspected(f"op.{i}")
    session.note_inspected("op.50")
    assert len(session.inspected) <= 32 and session.inspected[-1] == "op.50"


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def test_the_session_table_forgets_the_least_recently_used_and_the_idle():
    clock, evicted = Clock(), []
    table: SessionTable[str, Session] = SessionTable(lambda key: Session(caller=key), max_sessions=2, idle_seconds=10, on_evict=evicted.append, clock=clock)
    a = table.get("a")
    table.get("b")
    assert table.get("a") is a, "the same key, the same state"
    table.get("c")  # over the bound: "b" was used least recently
    assert "b" not in table and "a" in table and [s.caller for s in evicted] == ["b"]
    clock.now = 11
    fresh = table.get("a")
    assert fresh is not a and len(table) == 1 and table.evicted == 3
    with pytest.raises(ValueError):
        SessionTable(Session, max_sessions=0)
