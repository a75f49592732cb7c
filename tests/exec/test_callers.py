"""Callers of a shared gateway: a role narrows writes and confirmation; the caller names the log and scopes keys.

The real built-in handlers on a real demo workspace; the caller is set the
way the HTTP server sets it, with ``acting_as``.
"""

from __future__ import annotations

from opgate.core import Gateway
from opgate.core.access import Caller, acting_as
from opgate.core.exec import Session

PROJECT = "10000000-0000-4000-8000-000000000001"
OBSOLETE_TASK = "20000000-0000-4000-8000-000000000009"


def _caller(name: str, role: str) -> Caller:
    return Caller(name, role, Session(caller=name))


def _titled(gateway: Gateway, title: str) -> int:
    with gateway.store.read() as tx:
        return tx.list("task", {"title": title}).total


def _create(title: str) -> tuple[str, dict]:
    return "onto.task.create", {"project_id": PROJECT, "title": title}


def test_a_reader_may_read_and_dry_run_but_not_write(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True)
    try:
        with acting_as(_caller("ann", "reader")):
            assert gateway.exec("onto.project.list", {})["ok"]
            refused = gateway.exec(*_create("by a reader"))
            rehearsed = gateway.exec(*_create("by a reader"), dry_run=True)
            batch = gateway.batch([{"tool": "exec", "args": {"op": "onto.task.create", "args": _create("by a reader")[1]}}])
        assert refused["error"]["code"] == "PERMISSION_DENIED" and "ann's token has the role reader" in refused["error"]["message"]
        assert rehearsed["ok"] and rehearsed["meta"]["dry_run"] is True
        assert batch[0]["error"]["code"] == "PERMISSION_DENIED"
        assert _titled(gateway, "by a reader") == 0
    finally:
        gateway.close()


def test_a_role_never_widens_what_the_gateway_allows(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=False)
    try:
        with acting_as(_caller("root", "approver")):
            refused = gateway.exec(*_create("not allowed here"))
        assert refused["error"]["code"] == "PERMISSION_DENIED" and "allow_write is false" in refused["error"]["message"]
        assert _titled(gateway, "not allowed here") == 0
    finally:
        gateway.close()


def test_only_an_approver_reaches_the_person(tmp_path):
    asked = []
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True, approver=lambda request: asked.append(request.op) or True)
    try:
        with acting_as(_caller("wes", "writer")):
            refused = gateway.exec("onto.task.delete", {"task_id": OBSOLETE_TASK})
        assert refused["error"]["code"] == "PERMISSION_DENIED" and "approver token" in refused["error"]["message"] and asked == []
        with acting_as(_caller("amy", "approver")):
            deleted = gateway.exec("onto.task.delete", {"task_id": OBSOLETE_TASK})
        assert deleted["ok"] and asked == ["onto.task.delete"]
    finally:
        gateway.close()


def test_the_log_names_each_caller_even_for_batch_steps_on_pool_threads(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True)
    try:
        with acting_as(_caller("bea", "writer")):
            single = gateway.exec(*_create("logged"))
            steps = gateway.batch([
                {"tool": "exec", "args": {"op": "onto.project.list"}},
                {"tool": "exec", "args": {"op": "onto.task.list", "args": {"project_id": PROJECT}}},
            ])
        own = gateway.exec("onto.project.list", {})
        traces = {entry["trace_id"]: entry["caller"] for entry in gateway.recent_calls(50)}
        assert traces[single["meta"]["trace_id"]] == "bea"
        assert [traces[step["meta"]["trace_id"]] for step in steps] == ["bea", "bea"]
        assert traces[own["meta"]["trace_id"]] == "local"
    finally:
        gateway.close()


def test_idempotency_keys_belong_to_one_caller(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True)
    try:
        first_caller, second_caller = _caller("one", "writer"), _caller("two", "writer")
        with acting_as(first_caller):
            first = gateway.exec(*_create("keyed"), idempotency_key="k-1")
            replay = gateway.exec(*_create("keyed"), idempotency_key="k-1")
        with acting_as(second_caller):
            other = gateway.exec(*_create("keyed"), idempotency_key="k-1")
        assert replay["meta"].get("idempotent_replay") and replay["result"]["task"]["id"] == first["result"]["task"]["id"]
        assert not other["meta"].get("idempotent_replay") and other["result"]["task"]["id"] != first["result"]["task"]["id"]
        assert _titled(gateway, "keyed") == 2
    finally:
        gateway.close()


def test_each_caller_has_its_own_remembered_project(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True)
    try:
        first, second = _caller("one", "reader"), _caller("two", "reader")
        with acting_as(first):
            gateway.exec("onto.task.list", {"project_id": PROJECT})
            assert gateway.current_session is first.session
        assert first.session.known == {"project_id": PROJECT}
        assert second.session.known == {} and gateway.session.known == {}
    finally:
        gateway.close()
