"""``opgate stats``: the call log summarised, from a scripted session to the discovery chain it shows."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from opgate.core import Gateway
from opgate.core.modes import ToolRouter, mode_tools
from opgate.core.store import open_store
from opgate.core.telemetry import summarize
from opgate.core.telemetry._stats import percentile, since_stamp

PROJECT = "10000000-0000-4000-8000-000000000001"
API_SPEC = "50000000-0000-4000-8000-000000000002"  # a document at the root of the demo tree
ENGINEERING = "50000000-0000-4000-8000-000000000001"  # a folder of the demo tree


def _stats(db: Path, *options: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", *options], capture_output=True, text=True, timeout=120)


def _scripted_session(db: Path) -> None:
    """An agent's way to a move: search, read the op's help, run it (first with an argument missing)."""
    gateway = Gateway(db_path=db, allow_write=True)
    router = ToolRouter(gateway)
    router.call("search", {"query": "move doc"})
    router.call("help", {"path": "onto.document.tree.move"})
    router.call("exec", {"op": "onto.document.tree.move", "args": {"project_id": PROJECT}})
    moved = router.call("exec", {"op": "onto.document.tree.move", "args": {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}})
    gateway.close()
    assert moved["ok"], moved


def test_a_scripted_session_shows_its_chain_from_search_to_exec(tmp_path):
    db = tmp_path / "ws.db"
    _scripted_session(db)
    shown = _stats(db)
    assert shown.returncode == 0, shown.stderr
    flat = " ".join(shown.stdout.split())  # the table may wrap
    assert 'search "move doc" → help onto.document.tree.move → exec onto.document.tree.move VALIDATION_ERROR → exec onto.document.tree.move ok' in flat
    answer = json.loads(_stats(db, "--json").stdout)
    chain = answer["chains"]["recent"][-1]
    assert chain["steps"][0] == 'search "move doc"' and chain["steps"][-1] == "exec onto.document.tree.move ok" and chain["led_to_call"]
    assert answer["chains"]["led_to_ok_call"] >= 1
    by_op = {(row["op"], row["code"]): row["calls"] for row in answer["by_op_and_code"]}
    assert by_op[("onto.document.tree.move", "ok")] == 1 and by_op[("onto.document.tree.move", "VALIDATION_ERROR")] == 1
    assert answer["latency_ms"]["exec_p50"] > 0 and answer["latency_ms"]["exec_p95"] >= answer["latency_ms"]["exec_p50"]
    assert answer["sessions"] == 1


def test_the_lane_hit_rate_and_counters(tmp_path):
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db)
    router = ToolRouter(gateway)
    mode_tools(gateway, "hybrid", router=router, turn="list my tasks")
    router.call("onto__task__list", {"project_id": PROJECT})  # in the lane
    router.call("run_tool", {"name": "onto.task.list", "arguments": {"project_id": PROJECT}})  # in the lane, through run_tool
    router.call("run_tool", {"name": "util.web.visit", "arguments": {}})  # not in the lane, and refused
    router.call("list_tools", {"category": "util"})
    gateway.close()
    lane = json.loads(_stats(db, "--json").stdout)["lane"]
    assert lane["turns"] == 1 and lane["typed_schemas_max"] >= 1 and lane["total_schemas_max"] == lane["typed_schemas_max"] + 2
    assert (lane["list_tools_calls"], lane["run_tool_calls"], lane["run_tool_validation_failures"]) == (1, 2, 1)
    assert lane["calls_judged"] == 3 and lane["hit_rate"] == pytest.approx(2 / 3, abs=1e-3)
    table = " ".join(_stats(db).stdout.split())
    assert "lane hit rate 67% of 3 calls" in table and "1 validation failures" in table


def test_since_leaves_out_older_calls(tmp_path):
    db = tmp_path / "ws.db"
    three_days_ago = (datetime.now(timezone.utc) - timedelta(days=3)).strftime("%Y-%m-%dT%H:%M:%SZ")
    with open_store(db) as store, store.write() as tx:
        tx.append_call_logs([{"ts": three_days_ago, "op": "onto.task.list", "ok": True, "duration_ms": 5.0}])
    gateway = Gateway(db_path=db)
    gateway.exec("onto.project.list", {})
    gateway.close()
    everything = json.loads(_stats(db, "--json").stdout)
    recent = json.loads(_stats(db, "--json", "--since", "1h").stdout)
    assert everything["entries"] == 2 and recent["entries"] == 1
    assert [row["op"] for row in recent["by_op_and_code"]] == ["onto.project.list"]
    assert json.loads(_stats(db, "--json", "--since", three_days_ago[:10]).stdout)["entries"] == 2


def test_bad_options_and_a_missing_workspace_are_clear_errors(tmp_path):
    shown = _stats(tmp_path / "ws.db", "--since", "last tuesday")
    assert shown.returncode == 2 and "--since takes a window such as 30m" in shown.stderr and "Traceback" not in shown.stderr
    missing = _stats(tmp_path / "nowhere.db")
    assert missing.returncode == 2 and "no workspace database" in missing.stderr
    assert not (tmp_path / "nowhere.db").exists()
    as_json = _stats(tmp_path / "nowhere.db", "--json")
    assert json.loads(as_json.stdout)["ok"] is False
    not_a_database = tmp_path / "notes.db"
    not_a_database.write_text("shopping list\n" * 1000)
    shown = _stats(not_a_database)
    assert shown.returncode == 2 and "cannot read the call log" in shown.stderr and "Traceback" not in shown.stderr


def test_text_from_the_log_is_not_markup(tmp_path):
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db)
    gateway.search("[bold red]tasks[/]")
    gateway.close()
    assert "[bold red]tasks[/]" in _stats(db).stdout


def test_percentiles_and_windows():
    assert percentile([], 0.5) is None
    assert percentile([5.0], 0.95) == 5.0
    assert percentile(list(map(float, range(1, 101))), 0.5) == 50.0
    assert percentile(list(map(float, range(1, 101))), 0.95) == 95.0
    now = datetime(2026, 11, 26, 6, 0, 0, tzinfo=timezone.utc)
    assert since_stamp("30m", now=now) == "2026-11-26T05:30:00Z"
    assert since_stamp("7d", now=now) == "2026-11-19T06:00:00Z"
    assert since_stamp("2026-11-25T08:00:00Z") == "2026-11-25T08:00:00Z"
    assert since_stamp("2026-11-25T10:00:00+02:00") == "2026-11-25T08:00:00Z"
    with pytest.raises(ValueError, match="--since"):
        since_stamp("soon")


def test_a_run_tool_and_its_exec_are_one_step_of_a_chain():
    rows = [
        {"kind": "list_tools", "op": "move", "ok": True, "code": None, "trace_id": "a", "chain_id": "a", "parent_id": None, "session_id": "s", "duration_ms": 1.0},
        {"kind": "exec", "op": "onto.x", "ok": True, "code": None, "trace_id": "c", "chain_id": "a", "parent_id": "b", "session_id": "s", "duration_ms": 1.0},
        {"kind": "run_tool", "op": "onto.x", "ok": True, "code": None, "trace_id": "b", "chain_id": "a", "parent_id": None, "session_id": "s", "duration_ms": 2.0},
    ]
    chains = summarize(rows).chains
    assert chains["recent"][0]["steps"] == ['list_tools "move"', "run_tool onto.x ok"]
    assert (chains["total"], chains["led_to_call"], chains["median_steps_before_call"]) == (1, 1, 1)
