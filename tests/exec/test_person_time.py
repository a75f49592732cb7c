"""What the call log and the envelope say about a person's part in a call: their waiting time, their "no", a refused dry-run."""

from __future__ import annotations

import time

from opgate.core import Gateway

PROJECT = "10000000-0000-4000-8000-000000000001"
FIRST_TASK = "20000000-0000-4000-8000-000000000001"


def test_a_dry_run_refused_by_validation_is_logged_as_a_dry_run(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db")
    envelope = gateway.exec("onto.task.create", {"title": 3}, dry_run=True)
    refused_run = gateway.exec("onto.task.create", {"title": 3})
    entries = gateway.recent_calls(2)
    gateway.close()
    assert envelope["error"]["code"] == "VALIDATION_ERROR" and refused_run["error"]["code"] == "VALIDATION_ERROR"
    assert [e["dry_run"] for e in entries] == [False, True]


def test_a_declined_confirmation_is_a_cancellation_not_a_failure(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True, approver=lambda request: False)
    envelope = gateway.exec("onto.task.delete", {"task_id": FIRST_TASK})
    entry = gateway.recent_calls(1)[0]
    still_there = gateway.exec("onto.task.get", {"task_id": FIRST_TASK})["ok"]
    gateway.close()
    # An agent still gets one of exec's five codes; the person's "no" is marked on it, and in the log.
    assert envelope["error"]["code"] == "PERMISSION_DENIED" and envelope["error"]["details"]["cancelled"] is True
    assert entry["code"] == "CANCELLED" and not entry["ok"] and still_there


def test_writes_off_is_still_a_refusal_in_the_log(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db")
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "t"})
    entry = gateway.recent_calls(1)[0]
    gateway.close()
    assert "cancelled" not in envelope["error"]["details"] and entry["code"] == "PERMISSION_DENIED"


def test_latency_and_the_logged_duration_leave_out_the_time_the_person_took(tmp_path):
    def slow_person(request) -> bool:
        time.sleep(1.0)
        return True

    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True, approver=slow_person)
    started = time.perf_counter()
    envelope = gateway.exec("onto.task.delete", {"task_id": FIRST_TASK})
    outside_ms = (time.perf_counter() - started) * 1000
    entry = gateway.recent_calls(1)[0]
    gateway.close()
    meta = envelope["meta"]
    assert envelope["ok"] and meta["waited_ms"] >= 1000
    # Whatever the machine's speed: the call's own time plus the person's is at most the time seen from outside.
    assert meta["latency_ms"] + meta["waited_ms"] <= outside_ms + 1
    assert entry["duration_ms"] + meta["waited_ms"] <= outside_ms + 1
    assert not any("latency budget" in w for w in meta["warnings"])
