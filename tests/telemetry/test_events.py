"""Every entry point becomes a CallEvent, in the call log and at the listeners, with ids that link a chain."""

from __future__ import annotations

import logging
import subprocess
import sys
import textwrap
from pathlib import Path

import apsw
import pytest

from opgate.core import Gateway
from opgate.core.modes import ToolRouter, mode_tools
from opgate.core.settings import GatewaySettings
from opgate.core.store import open_store
from opgate.core.telemetry import EVENT_KINDS, CallEvent

PROJECT = "10000000-0000-4000-8000-000000000001"


def _log(db: Path) -> list[dict]:
    with open_store(db) as store, store.read() as tx:
        return tx.calls_since()


@pytest.fixture
def recorded(tmp_path):
    """A gateway on a fresh workspace, and the events its listener received."""
    events: list[CallEvent] = []
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True, listeners=[events.append])
    yield gateway, events
    gateway.close()


def test_search_help_exec_is_one_chain_in_the_events_and_the_log(recorded, tmp_path):
    gateway, events = recorded
    gateway.search("move doc")
    gateway.help("onto.document.tree.move")
    gateway.exec("onto.document.tree.move", {"project_id": PROJECT})
    gateway.exec("onto.project.list", {})  # no discovery step named it
    search, help_, move, listing = events
    assert [e.kind for e in events] == ["search", "help", "exec", "exec"]
    assert search.subject == "move doc" and "onto.document.tree.move" in search.detail["surfaced"]
    assert search.chain_id == search.trace_id
    assert help_.chain_id == move.chain_id == search.trace_id
    assert move.subject == "onto.document.tree.move" and move.code == "VALIDATION_ERROR"
    assert listing.chain_id is None and listing.ok
    assert len({e.session_id for e in events}) == 1 and all(e.actor == "local" for e in events)
    gateway.close()
    rows = _log(tmp_path / "ws.db")
    assert [(r["kind"], r["op"], r["chain_id"]) for r in rows] == [(e.kind, e.subject, e.chain_id) for e in events]
    assert rows[2]["trace_id"] == move.trace_id and rows[2]["args"] == {"project_id": PROJECT}
    assert rows[0]["detail"]["surfaced"][0] == "onto.document.tree.move"


def test_the_explorer_history_still_lists_only_exec_calls(recorded):
    gateway, _ = recorded
    gateway.help("onto.task")
    gateway.search("list tasks")
    gateway.exec("onto.task.list", {"limit": 1})
    assert [c["op"] for c in gateway.recent_calls(10)] == ["onto.task.list"]


def test_a_new_search_starts_a_new_chain_and_help_on_an_unsurfaced_op_starts_its_own(recorded):
    gateway, events = recorded
    gateway.search("move doc")
    gateway.search("list tasks")
    gateway.exec("onto.task.list", {})
    gateway.help("onto.risk.update")
    gateway.exec("onto.risk.update", {})
    first, second, tasks, risk_help, risk = events
    assert first.chain_id != second.chain_id == tasks.chain_id
    assert risk_help.chain_id == risk_help.trace_id == risk.chain_id


def test_a_failed_discovery_step_starts_no_chain(recorded):
    gateway, events = recorded
    gateway.help("onto.no.such.group")
    gateway.search("")
    assert [(e.ok, e.chain_id) for e in events] == [(False, None), (False, None)]
    assert events[0].code == "UNKNOWN_PATH" and events[1].code == "VALIDATION_ERROR"


def test_a_batch_is_the_parent_of_its_steps_even_on_pool_threads(recorded):
    gateway, events = recorded
    steps = [{"tool": "help", "args": {"path": "onto.task"}}] + [{"tool": "exec", "args": {"op": op, "args": {}}} for op in ("onto.task.list", "onto.project.list", "onto.goal.list")]
    answers = gateway.batch(steps)
    assert all(a["ok"] for a in answers)
    batch = events[-1]
    assert batch.kind == "batch" and batch.detail == {"steps": 4, "failed": 0}
    children = events[:-1]
    assert sorted(e.subject for e in children) == ["onto.goal.list", "onto.project.list", "onto.task", "onto.task.list"]
    assert all(e.parent_id == batch.trace_id for e in children)
    task_list = next(e for e in children if e.subject == "onto.task.list")
    assert task_list.chain_id == next(e for e in children if e.kind == "help").chain_id  # help named it first


def test_hybrid_lane_counts_list_and_run_and_validation_failures(recorded):
    gateway, events = recorded
    router = ToolRouter(gateway)
    tools = mode_tools(gateway, "hybrid", router=router, turn="list my tasks")
    lane = events[-1]
    typed = [t for t in tools if t.op]
    assert lane.kind == "lane" and lane.detail["typed"] == len(typed) and lane.detail["total"] == len(tools) == len(typed) + 2
    assert lane.detail["ops"] == [t.op for t in typed] and 0 < lane.detail["typed_bytes"] <= 12 * 1024
    assert "onto.task.list" in lane.detail["ops"]
    router.call("onto__task__list", {"project_id": PROJECT})
    router.call("list_tools", {"query": "move a document"})
    router.call("run_tool", {"name": "onto.document.tree.move", "arguments": {}})
    router.call("run_tool", {"nme": "typo"})
    typed_exec, listing, move_exec, run, bad_run = events[-5:]
    assert (typed_exec.kind, typed_exec.lane, typed_exec.detail["in_lane"]) == ("exec", "typed", True)
    assert (listing.kind, listing.lane, listing.subject) == ("list_tools", "generic", "move a document")
    assert (run.kind, run.subject, run.code, run.detail["validation_failure"]) == ("run_tool", "onto.document.tree.move", "VALIDATION_ERROR", True)
    assert move_exec.parent_id == run.trace_id and move_exec.lane == "generic" and move_exec.detail["in_lane"] is False
    assert run.chain_id == move_exec.chain_id == listing.trace_id  # list_tools showed it, run_tool ran it
    assert bad_run.code == "VALIDATION_ERROR" and bad_run.detail["validation_failure"] is True
    # The search the lane and list_tools ran for themselves are part of them, not calls of their own.
    assert not [e for e in events if e.kind == "search"]


def test_an_offline_export_of_the_hybrid_mode_records_nothing(recorded):
    gateway, events = recorded
    mode_tools(gateway, "hybrid", turn="list my tasks")  # no router: `opgate tools`, not a live session
    assert events == []


def test_the_discovery_protocol_is_traced_from_search_to_call(recorded):
    gateway, events = recorded
    router = ToolRouter(gateway)
    router.call("search_nodes", {"query": "documents"})
    router.call("list", {"path": ["onto", "document"]})
    router.call("search_tool_by_category", {"query": "move", "category_path": ["onto", "document"]})
    router.call("expand_tool", {"tool_id": "onto.document.tree.move"})
    router.call("call_tool", {"tool_id": "onto.document.tree.move", "arguments": {"project_id": PROJECT}, "dry_run": True})
    router.call("expand_tool", {"tool_id": 7})
    nodes, listing, category, expand, exec_, call, refused = events
    assert [e.kind for e in events] == ["search_nodes", "list", "search_tool_by_category", "expand_tool", "exec", "call_tool", "expand_tool"]
    assert all(e.lane == "protocol" for e in events)
    assert listing.chain_id == nodes.trace_id  # search_nodes surfaced onto.document
    assert category.chain_id == category.trace_id == expand.chain_id == call.chain_id == exec_.chain_id
    assert exec_.parent_id == call.trace_id and exec_.dry_run
    assert refused.code == "VALIDATION_ERROR" and not refused.ok


def test_refused_tool_calls_are_recorded_too(recorded):
    gateway, events = recorded
    router = ToolRouter(gateway)
    router.call("no_such_tool", {})
    router.call("help", {"pth": "x"})
    assert [(e.kind, e.subject, e.code) for e in events] == [("unknown_tool", "no_such_tool", "NOT_FOUND"), ("help", "", "VALIDATION_ERROR")]
    assert {e.kind for e in events} <= set(EVENT_KINDS)


class _Kept(logging.Handler):
    def __init__(self):
        super().__init__(logging.WARNING)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


def test_a_listener_that_raises_never_breaks_a_call(recorded):
    gateway, events = recorded
    calls = []
    kept = _Kept()  # on the logger itself: the CLI's logging setup may stop propagation to pytest's capture
    logging.getLogger("opgate.telemetry").addHandler(kept)

    def broken(event):
        calls.append(event.kind)
        raise RuntimeError("hook bug")

    remove = gateway.add_listener(broken)
    assert gateway.exec("onto.task.list", {"limit": 1})["ok"]
    assert gateway.help("onto.task")["ok"]
    assert calls == ["exec", "help"] and [e.kind for e in events] == ["exec", "help"]
    logging.getLogger("opgate.telemetry").removeHandler(kept)
    assert [r.getMessage() for r in kept.records if "listener" in r.getMessage()] == [kept.records[0].getMessage()]  # reported once
    assert "failed" in kept.records[0].getMessage() and kept.records[0].exc_info[1].args == ("hook bug",)
    remove()
    gateway.search("tasks")
    assert calls == ["exec", "help"]
    with pytest.raises(TypeError):
        gateway.add_listener("not callable")


def test_sessions_have_their_own_ids_and_chains(tmp_path):
    db = tmp_path / "ws.db"
    events: list[CallEvent] = []
    first = Gateway(db_path=db, listeners=[events.append])
    second = Gateway(db_path=db, listeners=[events.append])
    first.search("move doc")
    second.exec("onto.document.tree.move", {})  # the other session's search did not lead here
    first.close()
    second.close()
    assert events[0].session_id != events[1].session_id and events[1].chain_id is None


def test_long_and_broken_text_is_bounded_in_the_log(recorded, tmp_path):
    gateway, events = recorded
    gateway.search("x" * 100_000)
    gateway.search("bad \udc80 surrogate")
    gateway.close()
    rows = _log(tmp_path / "ws.db")
    assert len(rows[0]["op"]) <= 301 and "surrogate" in rows[1]["op"]


def test_recording_never_waits_for_the_write_lock(tmp_path):
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db)
    gateway.exec("onto.project.list", {})
    holder = apsw.Connection(str(db))
    holder.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        assert gateway.help("onto.task")["ok"] and gateway.search("tasks")["ok"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    gateway.close()
    assert [r["kind"] for r in _log(db)] == ["exec", "help", "search"]


def test_help_and_search_do_not_open_the_workspace_in_the_callers_thread(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", settings=GatewaySettings(call_log_flush_s=3600, call_log_flush_entries=10_000))
    gateway.help("")
    gateway.search("tasks")
    assert gateway._store is None  # the writer opens it, later
    gateway.close()
    assert [r["kind"] for r in _log(tmp_path / "ws.db")] == ["help", "search"]


def test_discovery_steps_are_not_lost_when_the_process_exits_without_closing(tmp_path):
    db = tmp_path / "ws.db"
    script = textwrap.dedent(f"""
        import sys
        from opgate.core import Gateway
        from opgate.core.modes import ToolRouter
        from opgate.core.settings import GatewaySettings
        gateway = Gateway(db_path={str(db)!r}, settings=GatewaySettings(call_log_flush_s=3600, call_log_flush_entries=10_000))
        router = ToolRouter(gateway)
        for n in range(20):
            router.call("search", {{"query": "move doc"}})
            router.call("expand_tool", {{"tool_id": "onto.document.tree.move"}})
        sys.exit(0)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=120)
    rows = _log(db)
    assert len(rows) == 40 and {r["lane"] for r in rows} == {"gateway", "protocol"}


def test_public_names_are_exported_on_purpose():
    import types

    import opgate.core.telemetry as telemetry

    loaded = {name for name, value in vars(telemetry).items() if not name.startswith("_") and name != "annotations" and not isinstance(value, types.ModuleType)}
    assert sorted(telemetry.__all__) == sorted(loaded | set(telemetry._LAZY))
    assert all(getattr(telemetry, name) is not None for name in telemetry.__all__)


def test_two_callers_of_one_gateway_log_under_their_own_sessions(recorded):
    from opgate.core.exec import Session

    gateway, events = recorded
    alice, bob = ToolRouter(gateway, session=Session()), ToolRouter(gateway, session=Session())
    alice.call("search", {"query": "move doc"})
    bob.call("help", {"path": "onto.task"})
    bob.call("exec", {"op": "onto.document.tree.move", "args": {}})  # alice's search did not lead bob here
    alice.call("expand_tool", {"tool_id": "onto.document.tree.move"})
    search, help_, move, expand = events
    assert search.session_id == expand.session_id == alice.session.id != bob.session.id == help_.session_id == move.session_id
    assert move.chain_id is None and expand.chain_id == search.trace_id
