"""opgate new tool, opgate build and the handler checks, through the real command line in subprocesses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "executors"))
from tool_folders import WRITER, opgate, write_tool  # noqa: E402

from opgate.core import Gateway  # noqa: E402

IMPORT_MARKER = '''
import os
open(os.environ["OPGATE_TEST_MARKER"], "a").write("imported\\n")

def execute(context):
    return {"ok": True, "data": "ran"}
'''


def test_a_new_tool_builds_loads_and_runs(tmp_path):
    tools = tmp_path / "tools"
    made = opgate("new", "tool", "word-echo", str(tools))
    assert made.returncode == 0, made.stderr
    assert {p.name for p in (tools / "word-echo").iterdir()} == {"schema.json", "guide.md", "handler.py"}
    built = opgate("build", str(tools), "--out", str(tmp_path / "registry.json"), "--run-examples")
    assert built.returncode == 0, built.stdout + built.stderr
    assert "1 example(s) ran, 0 failed" in built.stdout
    db = str(tmp_path / "ws.db")
    run = opgate("--catalog", str(tools), "--db", db, "exec", "word_echo", "text=hello", "--json")
    assert run.returncode == 0, run.stdout + run.stderr
    envelope = json.loads(run.stdout)
    assert envelope["ok"] and envelope["result"] == {"text": "hello", "length": 5}
    gateway = Gateway.from_catalogs([tmp_path / "registry.json"], db_path=tmp_path / "ws.db")
    try:
        assert gateway.exec("word_echo", {"text": "hi"})["result"] == {"text": "hi", "length": 2}
        blank = gateway.exec("word_echo", {"text": "  "})
        assert blank["error"]["code"] == "VALIDATION_ERROR" and blank["error"]["details"]["type"] == "VALIDATION"
    finally:
        gateway.close()


def test_new_refuses_a_bad_name_and_an_existing_folder(tmp_path):
    assert opgate("new", "tool", "Bad Name", str(tmp_path)).returncode == 2
    assert opgate("new", "tool", "fine", str(tmp_path)).returncode == 0
    again = opgate("new", "tool", "fine", str(tmp_path))
    assert again.returncode == 2 and "already exists" in again.stdout


def test_messages_naming_a_long_path_stay_on_one_line_in_a_pipe(tmp_path):
    # Written for scripts: a path cut at the 80th column by a line break cannot be grepped or pasted.
    deep = tmp_path / ("a-folder-with-a-long-name-" * 4)
    made = opgate("new", "tool", "fine", str(deep))
    assert made.returncode == 0 and f"made {deep / 'fine'}:" in made.stdout, made.stdout
    again = opgate("new", "tool", "fine", str(deep))
    assert again.returncode == 2 and f"{deep / 'fine'} already exists;" in again.stdout, again.stdout
    empty = deep / "empty"
    empty.mkdir()
    none = opgate("build", str(empty), "--out", str(tmp_path / "registry.json"))
    assert none.returncode == 1 and f"no tool folders in {empty}:" in none.stdout, none.stdout


def test_one_tool_folder_builds_that_tool_with_the_same_op(tmp_path):
    tools = tmp_path / "tools"
    opgate("new", "tool", "word-echo", str(tools))
    opgate("new", "tool", "other", str(tools))
    assert opgate("build", str(tools), "--out", str(tmp_path / "all.json")).returncode == 0
    single = opgate("build", str(tools / "word-echo"), "--out", str(tmp_path / "one.json"))
    assert single.returncode == 0, single.stdout
    everything = {op["tool_name"]: op["op"] for op in json.loads((tmp_path / "all.json").read_text())["ops"]}
    one = json.loads((tmp_path / "one.json").read_text())["ops"]
    assert [(op["tool_name"], op["op"]) for op in one] == [("word_echo", everything["word_echo"])]
    listed = opgate("--catalog", str(tools / "word-echo"), "--db", str(tmp_path / "w.db"), "exec", "word_echo", "text=x", "--json")
    assert json.loads(listed.stdout)["ok"], listed.stdout + listed.stderr


def test_a_tree_without_tools_is_an_error(tmp_path):
    (tmp_path / "empty").mkdir()
    result = opgate("build", str(tmp_path / "empty"), "--out", str(tmp_path / "registry.json"))
    assert result.returncode == 1
    assert "no tool folders" in result.stdout
    assert not (tmp_path / "registry.json").exists()


def _build_errors(tmp_path: Path) -> str:
    result = opgate("build", str(tmp_path / "tools"), "--out", str(tmp_path / "registry.json"))
    assert result.returncode == 1, result.stdout
    assert not (tmp_path / "registry.json").exists()
    return " ".join(result.stdout.split())


@pytest.mark.parametrize("handler, expected", [
    # The first line of each handler writes the marker, so the broken line is line 3.
    ("def execute(context):\n    return {'ok': True\n", "broken/handler.py: syntax error at line 3"),
    ("def run(context):\n    return {}\n", "broken/handler.py execute: no top-level execute"),
    ("def execute():\n    return {}\n", "broken/handler.py execute: must take exactly one required argument"),
])
def test_build_reports_handler_problems_without_importing(tmp_path, handler, expected):
    marker = tmp_path / "marker"
    write_tool(tmp_path / "tools", "broken", f"open({str(marker)!r}, 'w')\n" + handler)
    assert expected in _build_errors(tmp_path)
    assert not marker.exists()


@pytest.mark.parametrize("overrides, field", [
    ({"category": "retrieval", "sideEffects": "writes", "idempotent": True}, "sideEffects"),
    ({"category": "retrieval", "sideEffects": "read_only", "idempotent": False}, "idempotent"),
    ({"supportsDryRun": "yes"}, "supportsDryRun"),
])
def test_build_reports_metadata_that_contradicts_itself(tmp_path, overrides, field):
    write_tool(tmp_path / "tools", "confused", "def execute(context):\n    return {'ok': True}\n", **overrides)
    assert f"confused/schema.json {field}:" in _build_errors(tmp_path)


def test_the_handler_is_not_imported_by_build_or_help(tmp_path, monkeypatch):
    marker = tmp_path / "imported.txt"
    write_tool(tmp_path / "tools", "marked", IMPORT_MARKER)
    monkeypatch.setenv("OPGATE_TEST_MARKER", str(marker))  # the subprocesses and their workers inherit it
    db = str(tmp_path / "w.db")
    assert opgate("build", str(tmp_path / "tools"), "--out", str(tmp_path / "registry.json")).returncode == 0
    assert opgate("--catalog", str(tmp_path / "tools"), "--db", db, "help").returncode == 0
    assert opgate("--catalog", str(tmp_path / "registry.json"), "--db", db, "help", "marked").returncode == 0
    assert not marker.exists(), "building and browsing never import a handler"
    ran = opgate("--catalog", str(tmp_path / "registry.json"), "--db", db, "exec", "marked", "--json")
    assert json.loads(ran.stdout)["result"] == "ran"
    assert marker.read_text() == "imported\n"


def test_the_registry_keeps_handler_paths_relative_and_the_git_commit(tmp_path):
    repo = tmp_path / "repo"
    write_tool(repo / "tools", "kept", "def execute(context):\n    return {'ok': True, 'data': 'kept'}\n")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run([*git, "init", "-q", str(repo)], check=True)
    subprocess.run([*git, "-C", str(repo), "add", "."], check=True)
    subprocess.run([*git, "-C", str(repo), "commit", "-qm", "tools"], check=True)
    head = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=True).stdout.strip()
    out = repo / "dist" / "registry.json"
    out.parent.mkdir()
    assert opgate("build", str(repo / "tools"), "--out", str(out)).returncode == 0
    document = json.loads(out.read_text())
    assert document["git_commit"] == head
    (record,) = document["ops"]
    assert record["runs_on"] == {"kind": "python", "target": "../tools/kept/handler.py"}
    assert record["handler_path"] == "../tools/kept/handler.py"
    # The registry runs from wherever the command is started.
    ran = opgate("--catalog", "dist/registry.json", "--db", str(tmp_path / "w.db"), "exec", "kept", "--json", cwd=repo)
    assert json.loads(ran.stdout)["result"] == "kept", ran.stdout + ran.stderr
    # Outside a repository there is no commit to name.
    write_tool(tmp_path / "loose", "kept", "def execute(context):\n    return {'ok': True}\n")
    assert opgate("build", str(tmp_path / "loose"), "--out", str(tmp_path / "loose.json")).returncode == 0
    assert "git_commit" not in json.loads((tmp_path / "loose.json").read_text())


def test_build_builtin_writes_a_registry_that_runs(tmp_path, closed_after):
    out = tmp_path / "registry.json"
    result = opgate("build", "--builtin", "--out", str(out))
    assert result.returncode == 0, result.stdout
    gateway = Gateway.from_catalogs([out], db_path=tmp_path / "w.db")
    try:
        assert gateway.registry.ops == closed_after(Gateway(db_path=tmp_path / "w2.db")).registry.ops
        assert gateway.exec("onto.task.list", {"limit": 1})["ok"]
    finally:
        gateway.close()
    assert opgate("build", "--out", str(out)).returncode == 2, "a folder or --builtin is needed"


def test_run_examples_reports_failing_examples(tmp_path):
    tools = tmp_path / "tools"
    write_tool(tools, "good", "def execute(context):\n    return {'ok': True, 'data': 1}\n", examples=[{"value": "a"}])
    write_tool(tools, "bad", "from opgate.tool import ToolError\n\ndef execute(context):\n    raise ToolError('NOT_FOUND', 'no such thing')\n", examples=[{"value": "a"}])
    write_tool(tools, "invalid-example", "def execute(context):\n    return {'ok': True}\n", examples=[{"unknown": 1}])
    marker = tmp_path / "marker"
    write_tool(tools, "writer", f"def execute(context):\n    open({str(marker)!r}, 'w')\n    return {{'ok': True}}\n", examples=[{"value": "a"}], **WRITER)
    result = opgate("build", str(tools), "--out", str(tmp_path / "registry.json"), "--run-examples")
    assert result.returncode == 1
    text = " ".join(result.stdout.split())
    assert "4 example(s) ran, 2 failed" in text
    assert "NOT_FOUND: no such thing" in text and "VALIDATION_ERROR" in text
    assert not marker.exists(), "examples of writes are dry-runs"
