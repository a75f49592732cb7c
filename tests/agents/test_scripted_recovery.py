"""A scripted agent (no LLM) replays the failure modes real deployments reported.

Each case makes the bad call, then builds its next call from the response
alone, the way a model would, and must succeed within one retry.
"""

from __future__ import annotations

import pytest

from opgate.core import Gateway
from opgate.core.modes import LOOP_THRESHOLD, ToolRouter

PROJECT = "10000000-0000-4000-8000-000000000001"


@pytest.fixture
def router(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    yield ToolRouter(gateway)
    gateway.close()


def test_exec_with_empty_args_recovers_from_the_inline_example(router):
    first = router.call("exec", {"op": "onto.task.create", "args": {}})
    assert first["error"]["code"] == "VALIDATION_ERROR"
    example = first["error"]["details"]["example"]
    retry = router.call("exec", {"op": example["op"], "args": example["args"]})
    assert retry["ok"], retry


def test_misspelled_op_recovers_from_the_suggestion(router):
    first = router.call("exec", {"op": "onto.tasks.lst", "args": {"project_id": PROJECT}})
    assert first["error"]["code"] == "NOT_FOUND"
    retry = router.call("exec", {"op": first["error"]["help_path"], "args": {"project_id": PROJECT}})
    assert retry["ok"] and retry["op"] == "onto.task.list"


def test_write_missing_a_required_id_recovers_from_the_field_error(router):
    gateway = router.gateway
    gateway.session.known.clear()
    first = router.call("exec", {"op": "onto.document.tree.move", "args": {"document_id": "50000000-0000-4000-8000-000000000002"}})
    error = first["error"]
    missing = [e for e in error["details"]["field_errors"] if e["code"] == "missing_required"]
    assert [e["field"] for e in missing] == ["args.project_id"] and "uuid" in missing[0]["expected"]
    # The agent finds the id with the op the help path's group offers, then retries.
    projects = router.call("exec", {"op": "onto.project.search", "args": {"search": "Relay"}})
    project_id = projects["result"]["projects"][0]["id"]
    retry = router.call("exec", {"op": error["help_path"], "args": {"document_id": "50000000-0000-4000-8000-000000000002", "project_id": project_id, "new_parent_id": "50000000-0000-4000-8000-000000000001"}, "dry_run": True})
    assert retry["ok"], retry


def test_wrong_enum_value_recovers_from_the_suggestion(router):
    first = router.call("exec", {"op": "onto.task.list", "args": {"state_key": "in-progress"}})
    error = first["error"]["details"]["field_errors"][0]
    assert error["code"] == "not_in_enum" and "in_progress" in error["allowed"]
    retry = router.call("exec", {"op": "onto.task.list", "args": {"state_key": error["suggestion"]}})
    assert retry["ok"]


def test_unknown_argument_recovers_from_did_you_mean(router):
    first = router.call("exec", {"op": "onto.task.list", "args": {"projectId": PROJECT}})
    error = first["error"]["details"]["field_errors"][0]
    assert error["suggestion"] == "project_id"
    assert router.call("exec", {"op": "onto.task.list", "args": {error["suggestion"]: PROJECT}})["ok"]


def test_help_loop_is_broken_by_the_guard(router):
    answers = [router.call("help", {"path": "onto.task.list"}) for _ in range(LOOP_THRESHOLD)]
    guard = answers[-1]["loop_guard"]
    assert "exec" in guard
    # The help payload already holds an example to run.
    example = answers[-1]["examples"][0]["args"]
    assert router.call("exec", {"op": answers[-1]["op"], "args": example})["ok"]


def test_op_outside_the_scope_recovers_to_a_visible_op(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", context="global")
    router = ToolRouter(gateway)
    first = router.call("exec", {"op": "onto.task.get", "args": {"task_id": "20000000-0000-4000-8000-000000000001"}})
    error = first["error"]
    assert error["code"] == "NOT_FOUND" and "context 'global'" in error["message"]
    assert "onto.task.get" not in error["details"]["suggestions"]
    # The same refusal as help: nothing more is revealed.
    assert router.call("help", {"path": "onto.task.get"})["error"]["code"] == "UNKNOWN_PATH"
    next_op = error["details"]["suggestions"][0]
    usage = router.call("help", {"path": next_op})
    retry = router.call("exec", {"op": next_op, "args": usage["examples"][0]["args"]})
    assert retry["ok"], retry
    gateway.close()
