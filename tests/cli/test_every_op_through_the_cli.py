"""Every op of the built-in catalogue runs through the command line on the demo workspace.

Each op's first catalogue example runs with ``opgate exec`` (writes for real,
with writes allowed and confirmation given); the web ops are left out (they
reach the network and have their own tests against local servers).
"""

from __future__ import annotations

import json

import pytest

from opgate.cli import main
from opgate.core import Gateway

OPS = [r for r in Gateway().registry if not r.op.startswith("util.web.")]


@pytest.mark.parametrize("record", OPS, ids=[r.op for r in OPS])
def test_the_first_example_runs_through_the_cli(record, tmp_path, capsys):
    args = record.examples[0]["args"]
    status = main(["--db", str(tmp_path / "w.db"), "exec", record.op, json.dumps(args), "--allow-write", "--yes", "--json"])
    envelope = json.loads(capsys.readouterr().out)
    assert status == 0, envelope
    assert envelope["ok"] and envelope["op"] == record.op
    if record.kind == "write" and not envelope["meta"].get("dry_run"):
        assert any(envelope["meta"]["diff"].values()), "a write that ran must have changed the store"


def test_the_documented_move_flow_is_one_batch(tmp_path, capsys):
    """Find the API Spec and the Engineering folder, read the move's help, look at the tree, move it."""
    steps = [
        {"tool": "exec", "args": {"op": "onto.document.search", "args": {"search": "API Spec", "limit": 10}}},
        {"tool": "help", "args": {"path": "onto.document.tree.move"}},
        {"tool": "exec", "args": {"op": "onto.document.search", "args": {"search": "Engineering", "limit": 1}}},
        {"tool": "exec", "args": {"op": "onto.document.get", "args": {"document_id": "$0.result.documents[0].id"}}},
        {"tool": "exec", "args": {"op": "onto.document.tree.get", "args": {"project_id": "$3.result.document.project_id", "include_documents": True}}},
        {"tool": "exec", "args": {"op": "onto.document.tree.move", "args": {
            "project_id": "$3.result.document.project_id",
            "document_id": "$0.result.documents[0].id",
            "new_parent_id": "$2.result.documents[0].id",
        }}},
        {"tool": "exec", "args": {"op": "onto.document.path.get", "args": {"document_id": "$0.result.documents[0].id"}}},
    ]
    file = tmp_path / "flow.json"
    file.write_text(json.dumps(steps))
    assert main(["--db", str(tmp_path / "w.db"), "batch", str(file), "--allow-write", "--json"]) == 0
    envelopes = json.loads(capsys.readouterr().out)
    assert [e["ok"] for e in envelopes] == [True] * len(steps)
    assert envelopes[-1]["result"]["path_text"] == "Engineering / API Spec"


def test_search_and_discover_commands(capsys):
    assert main(["search", "move", "a", "document", "into", "a", "folder", "--limit", "3"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["op"] == "onto.document.tree.move"
    assert main(["discover", "list", "onto.task"]) == 0
    assert any(t["tool_id"] == "onto.task.create" for t in json.loads(capsys.readouterr().out)["tools"])
    assert main(["discover", "expand", "onto.task.lst"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "TOOL_NOT_FOUND"
    assert main(["discover", "nodes", "web pages"]) == 0
    assert json.loads(capsys.readouterr().out)["results"][0]["path"] == ["util", "web"]
    assert main(["discover", "category", "weather forecast", "--path", "onto.task"]) == 1
    assert json.loads(capsys.readouterr().out)["error"]["code"] == "NO_MATCH_IN_CATEGORY"
