"""The one-shot CLI: help, exec, batch, tools and demo reset, with global options in either place."""

from __future__ import annotations

import json
import subprocess
import sys

from opgate.cli import main

PROJECT = "10000000-0000-4000-8000-000000000001"


def _json(capsys) -> object:
    return json.loads(capsys.readouterr().out)


def test_help_json_is_exactly_what_an_agent_gets(capsys):
    from opgate.core import Gateway

    assert main(["help", "onto.task", "--json"]) == 0
    gateway = Gateway()
    try:
        assert _json(capsys) == gateway.help("onto.task")
    finally:
        gateway.close()


def test_help_for_people_and_unknown_paths(capsys):
    assert main(["help", "onto.task.create"]) == 0
    out = capsys.readouterr().out
    assert "usage:" in out and "project_id" in out and "don't:" in out
    assert main(["help", "onto.tsk"]) == 1
    assert "closest" in capsys.readouterr().out


def test_global_options_before_and_after_the_command(github_catalog, capsys):
    assert main(["--catalog", str(github_catalog), "help", "--json"]) == 0
    before = _json(capsys)
    assert main(["help", "--json", "--catalog", str(github_catalog)]) == 0
    assert _json(capsys) == before
    assert before["groups"][0]["name"] == "mcp"


def test_exec_key_values_exit_status_and_db(tmp_path, capsys):
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "exec", "onto.task.list", f"project_id={PROJECT}", "limit=2", "--json"]) == 0
    assert len(_json(capsys)["result"]["tasks"]) == 2
    assert main(["exec", "onto.task.list", "limit=nope", "--json", "--db", db]) == 1
    assert _json(capsys)["error"]["code"] == "VALIDATION_ERROR"


def test_exec_write_needs_allow_write_and_dry_run_shows_the_diff(tmp_path, capsys):
    db = str(tmp_path / "w.db")
    args = ["--db", db, "exec", "onto.task.create", json.dumps({"project_id": PROJECT, "title": "From the CLI"}), "--json"]
    assert main(args) == 1
    assert _json(capsys)["error"]["code"] == "PERMISSION_DENIED"
    assert main([*args, "--dry-run"]) == 0
    assert _json(capsys)["meta"]["diff"]["created"][0]["kind"] == "task"
    assert main([*args, "--allow-write"]) == 0
    assert _json(capsys)["result"]["task"]["title"] == "From the CLI"


def test_batch_from_a_file(tmp_path, capsys):
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps([
        {"tool": "exec", "args": {"op": "onto.document.search", "args": {"search": "API Spec"}}},
        {"tool": "exec", "args": {"op": "onto.document.path.get", "args": {"document_id": "$0.result.documents[0].id"}}},
    ]))
    assert main(["--db", str(tmp_path / "w.db"), "batch", str(steps), "--json"]) == 0
    envelopes = _json(capsys)
    assert envelopes[1]["result"]["path"][-1]["title"] == "API Spec"


def test_tools_stats(capsys):
    assert main(["tools", "--mode", "gateway", "--provider", "anthropic", "--stats"]) == 0
    assert "gateway" in capsys.readouterr().out
    assert main(["tools", "--mode", "full", "--provider", "openai"]) == 0
    assert len(_json(capsys)) == 68


def test_tools_refusals_go_to_stderr_with_a_non_zero_exit(capsys):
    assert main(["tools", "--mode", "deferred", "--provider", "openai"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "deferred" in captured.err
    assert main(["tools", "--mode", "full", "--provider", "anthropic", "--strict"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "strict" in captured.err


def test_tools_strict_prints_the_array_and_reports_what_stays_non_strict(capsys):
    assert main(["tools", "--mode", "full", "--provider", "openai", "--strict"]) == 0
    captured = capsys.readouterr()
    tools = json.loads(captured.out)
    strict = [t["function"]["name"] for t in tools if t["function"].get("strict")]
    assert strict and len(strict) < len(tools)
    assert "keep a non-strict schema" in captured.err and "onto__task__create: props:" in captured.err
    assert main(["tools", "--mode", "deferred", "--provider", "openai-responses", "--stats", "--strict"]) == 0
    out = capsys.readouterr().out
    assert "namespaces" in out and f"{len(strict)}/68" in out


def test_demo_reset_rebuilds_the_workspace(tmp_path, capsys):
    db = str(tmp_path / "w.db")
    main(["--db", db, "exec", "onto.task.create", json.dumps({"project_id": PROJECT, "title": "Gone after reset"}), "--allow-write", "--json"])
    capsys.readouterr()
    assert main(["--db", db, "demo", "reset"]) == 0
    capsys.readouterr()
    main(["--db", db, "exec", "onto.task.search", "search=Gone after reset", "--json"])
    assert _json(capsys)["result"]["total"] == 0


def test_python_dash_m_and_no_traceback_on_bad_input(tmp_path):
    result = subprocess.run([sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "exec", "onto.task.list", "{not json"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert "not valid JSON" in result.stdout


def test_a_batch_file_with_a_key_it_does_not_know_is_refused_before_anything_runs(tmp_path, capsys):
    """`{"steps": [...], "on_eror": "continue"}` ran with on_error 'stop', the misspelt key unread; the MCP batch
    tool refuses the same key."""
    db = str(tmp_path / "w.db")
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps({"steps": [
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": "10000000-0000-4000-8000-000000000001", "title": "Never made"}}},
    ], "on_eror": "continue"}))
    assert main(["--db", db, "batch", str(steps), "--allow-write", "--json"]) == 2
    out = " ".join(capsys.readouterr().out.split())
    assert "'on_eror'" in out and "on_error" in out, out
    assert main(["--db", db, "exec", "onto.task.list", "limit=200", "--json"]) == 0
    assert all(t["title"] != "Never made" for t in _json(capsys)["result"]["tasks"])
