"""What a person reads from the command line: an unknown op named first, how to turn writes on, counts and flags said right."""

from __future__ import annotations

import json

from opgate.cli import main


def test_exec_names_the_unknown_op_before_judging_its_arguments(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "w.db"), "exec", "onto.task", "notakv", "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "NOT_FOUND", error
    assert "onto.task.list" in error["details"]["suggestions"]


def test_a_known_op_with_words_that_are_not_key_value_is_still_a_validation_error(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "w.db"), "exec", "onto.task.list", "notakv", "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "VALIDATION_ERROR" and "is not key=value" in error["message"]


def test_a_write_refused_because_writes_are_off_says_which_flag_turns_them_on(tmp_path, capsys):
    project = "10000000-0000-4000-8000-000000000001"
    assert main(["--db", str(tmp_path / "w.db"), "exec", "onto.task.create", "title=x", f"project_id={project}"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "PERMISSION_DENIED" in out and "--allow-write lets it write" in out, out


def test_a_group_of_one_op_says_one_op(capsys):
    assert main(["help", "util.schema"]) == 0
    out = capsys.readouterr().out
    assert "util.schema  (1 op)" in out and "1 ops" not in out, out


def test_exec_help_says_what_a_dry_run_of_an_upstream_op_does(capsys):
    import pytest

    with pytest.raises(SystemExit):
        main(["exec", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "an HTTP or MCP op sends nothing and shows the request" in out, out


def test_an_unknown_help_path_says_the_command_to_type_next(capsys):
    assert main(["help", "onto.nope"]) == 1
    out = capsys.readouterr().out
    assert "next: opgate help onto.output" in out and "help(path=" not in out, out


def test_new_tool_prints_the_next_command_on_one_line_to_copy(tmp_path, capsys):
    tools = tmp_path / "a-folder-with-a-rather-long-name" / "tools"
    assert main(["new", "tool", "kb-search", str(tools)]) == 0
    out = capsys.readouterr().out
    assert f"`opgate build {tools}`" in out, out


def test_an_unknown_op_with_no_close_name_prints_no_empty_suggestions(tmp_path, capsys):
    assert main(["--db", str(tmp_path / "w.db"), "exec", "broken.x"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("NOT_FOUND  broken.x") and "suggestions" not in out and "[]" not in out, out


def test_an_op_of_a_server_that_did_not_start_says_why_on_stderr(tmp_path, capsys):
    """NOT_FOUND alone sent the person looking for a typo; the server's failure is the answer (a retryable error naming
    the upstream as unavailable, quoting the server's stderr)."""
    import sys

    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps({"mcpServers": {"broken": {"command": sys.executable, "args": [str(tmp_path / "missing_server.py")]}}}), encoding="utf-8")
    assert main(["--db", str(tmp_path / "w.db"), "--mcp-servers", str(servers), "exec", "broken.tool.run"]) == 1
    captured = capsys.readouterr()
    assert captured.out.startswith("INTERNAL  broken.tool.run"), captured.out
    shown = " ".join(captured.out.split())  # as the person reads it, whatever the terminal's width
    assert "upstream 'broken' is unavailable" in shown and "can't open file" in shown and "retry later" in shown, captured.out


def test_an_argument_given_twice_is_refused_not_overwritten(tmp_path, capsys):
    """`title=Plan title=Review` created a task titled Review: the first value was dropped without a word."""
    project = "10000000-0000-4000-8000-000000000001"
    db = str(tmp_path / "w.db")
    assert main(["--db", db, "exec", "onto.task.create", f"project_id={project}", "title=Plan", "title=Review", "--allow-write", "--json"]) == 1
    error = json.loads(capsys.readouterr().out)["error"]
    assert error["code"] == "VALIDATION_ERROR" and "title" in error["message"] and "'Plan'" in error["message"] and "'Review'" in error["message"], error
    assert main(["--db", db, "exec", "onto.task.list", f"project_id={project}", "limit=200", "--json"]) == 0
    titles = [t["title"] for t in json.loads(capsys.readouterr().out)["result"]["tasks"]]
    assert "Review" not in titles and "Plan" not in titles, "the refused call wrote nothing"


def test_an_op_refused_for_want_of_a_confirmation_says_which_flag_gives_it(tmp_path, capsys):
    """Without a terminal the command line cannot ask; the refusal said 'run it from the explorer or the REPL'
    and never named --yes, the command line's own way to confirm."""
    task = "20000000-0000-4000-8000-000000000021"
    assert main(["--db", str(tmp_path / "w.db"), "exec", "onto.task.delete", f"task_id={task}", "--allow-write"]) == 1
    out = " ".join(capsys.readouterr().out.split())
    assert "PERMISSION_DENIED" in out and "--yes confirms it" in out, out


import pytest  # noqa: E402


@pytest.mark.parametrize(("flag", "value"), [
    ("--config", ""), ("--config", "  "), ("--catalog", ""), ("--catalog", "tools="), ("--mcp-servers", ""),
])
def test_an_empty_file_option_is_refused_never_read_as_the_default_or_this_folder(tmp_path, monkeypatch, capsys, flag, value):
    """`--config "$CFG"` with CFG unset read ./opgate.toml; `--catalog ""` (or `tools=`) loaded every JSON file of the
    current folder as catalogues. An unset variable must not pick a file for the person."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "opgate.toml").write_text('context = "nosuch"\n', encoding="utf-8")
    (tmp_path / "notes.json").write_text('{"shopping": ["milk"]}', encoding="utf-8")
    with pytest.raises(SystemExit) as stopped:
        main([flag, value, "help"])
    assert stopped.value.code == 2
    err = " ".join(capsys.readouterr().err.split())
    assert f"argument {flag}:" in err and "empty" in err, err


def test_the_command_line_runs_the_very_ids_its_dry_run_showed(tmp_path, capsys):
    """Every other front end passes a dry-run's meta.id_seed back (the explorer, exec and batch over MCP, Python);
    `opgate exec` had no --id-seed, so the run created other ids than the diff a person had reviewed."""
    db = str(tmp_path / "w.db")
    call = ["--db", db, "exec", "onto.task.create", "project_id=10000000-0000-4000-8000-000000000001", "title=Reviewed"]
    assert main([*call, "--dry-run"]) == 0
    shown = capsys.readouterr().out
    assert main([*call, "--dry-run", "--json"]) == 0
    rehearsal = json.loads(capsys.readouterr().out)
    seed, digest = rehearsal["meta"]["id_seed"], rehearsal["meta"]["state_digest"]
    assert f"id seed: {seed}" in shown or "id seed:" in shown, shown
    assert main([*call, "--allow-write", "--id-seed", seed, "--state-digest", digest, "--json"]) == 0
    run = json.loads(capsys.readouterr().out)
    assert run["result"]["task"]["id"] == rehearsal["result"]["task"]["id"]
