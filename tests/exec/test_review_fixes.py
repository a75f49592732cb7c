"""Edge cases a review found: confirmation races, keyed retries, hard timeouts, dry-run side effects."""

from __future__ import annotations

import time

from opgate.core import Gateway
from opgate.core.exec import Handler
from opgate.core.settings import GatewaySettings

PROJECT = "10000000-0000-4000-8000-000000000001"
TASK = "20000000-0000-4000-8000-000000000001"


def test_a_change_during_confirmation_makes_the_run_fail_instead_of_doing_more(make_gateway, store):
    other = make_gateway(allow_write=True)

    def approve_after_someone_else_writes(request):
        other.exec("onto.task.update", {"task_id": TASK, "title": "Changed while the person was reading"})
        return True

    gateway = make_gateway(allow_write=True, approver=approve_after_someone_else_writes)
    envelope = gateway.exec("onto.task.delete", {"task_id": TASK})
    assert envelope["error"]["code"] == "CONFLICT"
    assert gateway.exec("onto.task.get", {"task_id": TASK})["ok"], "the task must still be there"


def test_the_approver_cannot_change_what_runs(make_gateway):
    def meddle(request):
        request.args["task_id"] = "20000000-0000-4000-8000-000000000002"
        return True

    gateway = make_gateway(allow_write=True, approver=meddle)
    assert gateway.exec("onto.task.delete", {"task_id": TASK})["result"]["deleted"]["id"] == TASK
    assert gateway.exec("onto.task.get", {"task_id": "20000000-0000-4000-8000-000000000002"})["ok"]


def test_a_keyed_retry_of_a_confirmed_write_replays_without_asking_again(make_gateway):
    asked = []
    gateway = make_gateway(allow_write=True, approver=lambda request: asked.append(request) or True)
    first = gateway.exec("onto.task.delete", {"task_id": TASK}, idempotency_key="del-1")
    again = gateway.exec("onto.task.delete", {"task_id": TASK}, idempotency_key="del-1")
    assert first["ok"] and again["ok"] and again["meta"]["idempotent_replay"]
    assert len(asked) == 1


def test_a_dry_run_with_a_used_key_predicts_the_replay(make_gateway):
    gateway = make_gateway(allow_write=True)
    args = {"project_id": PROJECT, "title": "Keyed"}
    gateway.exec("onto.task.create", args, idempotency_key="k")
    preview = gateway.exec("onto.task.create", args, idempotency_key="k", dry_run=True)
    assert preview["meta"]["idempotent_replay"] and preview["meta"]["dry_run"]
    assert gateway.exec("onto.task.create", {**args, "title": "Other"}, idempotency_key="k", dry_run=True)["error"]["code"] == "CONFLICT"


def test_a_dry_run_does_not_become_the_sessions_current_project(make_gateway):
    gateway = make_gateway(allow_write=True)
    gateway.session.known.clear()
    gateway.exec("onto.project.get", {"project_id": PROJECT}, dry_run=True)
    assert "project_id" not in gateway.session.known


def test_a_state_digest_must_be_a_string(make_gateway):
    envelope = make_gateway(allow_write=True).exec("onto.task.update", {"task_id": TASK, "priority": 2}, state_digest=5)
    assert envelope["error"]["code"] == "VALIDATION_ERROR"


def test_the_hard_timeout_stops_a_long_query(make_gateway):
    def slow(ctx, args):
        # A recursive query that would run for seconds; the deadline interrupts it.
        ctx.tx._fetch("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 200000000) SELECT count(*) FROM n")
        return {}

    gateway = make_gateway(handlers={"onto.task.list": Handler(slow)}, settings=GatewaySettings(hard_timeout_s=0.2, read_retries=0))
    started = time.perf_counter()
    envelope = gateway.exec("onto.task.list", {})
    assert time.perf_counter() - started < 3
    assert envelope["ok"] is False and envelope["error"]["details"]["retryable"] is True
    assert "did not finish" in envelope["error"]["message"]
