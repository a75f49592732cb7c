"""Text holding NUL (U+0000): PostgreSQL's text cannot store it, and the refusal names the argument that carried it.

SQLite stores such text as it is; on PostgreSQL the call is VALIDATION_ERROR
naming ``args.title`` (it once named ``args.value``, an argument no op has),
and nothing is written.
"""

from __future__ import annotations

import pytest

from opgate.core import Gateway
from opgate.core.store import open_store


@pytest.fixture
def workspace(tmp_path, new_workspace, backend):
    store = open_store(new_workspace(tmp_path))
    with store.write() as tx:
        project = tx.insert("project", {"name": "NUL"})
        task = tx.insert("task", {"project_id": project["id"], "title": "plain"})
    gateway = Gateway(store=store, allow_write=True, call_log=False)
    yield gateway, project["id"], task["id"], backend
    gateway.close()
    store.close()


CALLS = [
    ("onto.task.create", lambda project, task: {"project_id": project, "title": "a\x00b"}, "title"),
    ("onto.task.create", lambda project, task: {"project_id": project, "title": "fine", "description": "x\x00"}, "description"),
    ("onto.task.update", lambda project, task: {"task_id": task, "title": "b\x00"}, "title"),
]


@pytest.mark.parametrize(("op", "make_args", "argument"), CALLS, ids=[f"{op}-{argument}" for op, _, argument in CALLS])
def test_nul_in_text_names_its_argument_and_writes_nothing(workspace, op, make_args, argument):
    gateway, project, task, backend = workspace
    before = gateway.exec("onto.task.list", {"project_id": project})["result"]
    envelope = gateway.exec(op, make_args(project, task))
    if backend == "sqlite":
        assert envelope["ok"], envelope
        return
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert field_error["field"] == f"args.{argument}" and "NUL" in field_error["message"], field_error
    assert envelope["error"]["message"].startswith(f"{argument}: ")
    assert gateway.exec("onto.task.list", {"project_id": project})["result"] == before


def test_nul_inside_props_is_stored_as_json_on_both_backends(workspace):
    gateway, _, task, _ = workspace
    envelope = gateway.exec("onto.task.update", {"task_id": task, "props": {"note": "a\x00b"}})
    assert envelope["ok"], envelope
    assert gateway.exec("onto.task.get", {"task_id": task})["result"]["task"]["props"] == {"note": "a\x00b"}
