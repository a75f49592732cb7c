"""exec: envelopes, validation, authorization, dry-run, idempotency, digests."""

from __future__ import annotations

import json

from opgate.core.exec import ERROR_CODES

PROJECT = "10000000-0000-4000-8000-000000000001"
TASK = "20000000-0000-4000-8000-000000000001"


def test_success_envelope_shape(make_gateway):
    envelope = make_gateway().exec("onto.task.list", {"project_id": PROJECT})
    assert envelope["ok"] is True and envelope["op"] == "onto.task.list"
    assert set(envelope["meta"]) >= {"trace_id", "latency_ms", "warnings"}
    assert envelope["meta"]["trace_id"].startswith("tr_")
    assert envelope["result"]["total"] > 0
    assert envelope["result"]["tasks"][0]["id"] in envelope["meta"]["entities"]


def test_tool_name_is_accepted(make_gateway):
    assert make_gateway().exec("list_onto_tasks", {})["op"] == "onto.task.list"


def test_unknown_op_names_the_closest(make_gateway):
    envelope = make_gateway().exec("onto.tsk.list", {})
    assert envelope["error"]["code"] == "NOT_FOUND"
    assert envelope["error"]["details"]["suggestions"][0] == "onto.task.list"
    assert envelope["error"]["help_path"] == "onto.task.list"


def test_every_field_error_with_paths_and_suggestions(make_gateway):
    envelope = make_gateway().exec("onto.task.create", {"project_id": "not-a-uuid", "titel": "x", "priority": 9, "due_at": "tomorrow"})
    error = envelope["error"]
    assert error["code"] == "VALIDATION_ERROR" and error["help_path"] == "onto.task.create"
    by_field = {e["field"]: e for e in error["details"]["field_errors"]}
    assert by_field["args.titel"]["suggestion"] == "title"
    assert by_field["args.title"]["code"] == "missing_required"
    assert by_field["args.priority"]["code"] == "out_of_range"
    assert by_field["args.project_id"]["code"] == "invalid_format"
    assert by_field["args.due_at"]["code"] == "invalid_format"


def test_empty_args_carry_usage_and_a_valid_example(make_gateway):
    gateway = make_gateway(allow_write=True)
    error = gateway.exec("onto.task.create", {})["error"]
    assert error["details"]["usage"].startswith("onto.task.create project_id=<uuid> title=<string>")
    example = error["details"]["example"]
    retry = gateway.exec(example["op"], example["args"])
    assert retry["ok"], retry


def test_a_bad_call_writes_nothing(make_gateway, store):
    before = store.dump()
    make_gateway(allow_write=True).exec("onto.task.create", {"project_id": PROJECT, "title": 5})
    assert store.dump() == before


def test_writes_need_allow_write_but_dry_run_does_not(make_gateway, store):
    gateway = make_gateway()
    args = {"project_id": PROJECT, "title": "Write the changelog"}
    denied = gateway.exec("onto.task.create", args)
    assert denied["error"]["code"] == "PERMISSION_DENIED"
    before = store.dump()
    preview = gateway.exec("onto.task.create", args, dry_run=True)
    assert preview["ok"] and preview["meta"]["dry_run"] is True
    assert store.dump() == before
    created = preview["meta"]["diff"]["created"]
    assert len(created) == 1 and created[0]["kind"] == "task"
    assert preview["meta"]["state_digest"]


def test_dry_run_returns_what_the_real_run_returns(make_gateway):
    gateway = make_gateway(allow_write=True)
    args = {"task_id": TASK, "title": "Renamed by the test", "priority": 5}
    preview = gateway.exec("onto.task.update", args, dry_run=True)
    real = gateway.exec("onto.task.update", args)
    strip = lambda r: {k: v for k, v in r["task"].items() if k != "updated_at"}  # noqa: E731
    assert strip(preview["result"]) == strip(real["result"])
    update = preview["meta"]["diff"]["updated"][0]
    assert update["id"] == TASK


def test_state_digest_detects_a_change_in_between(make_gateway):
    gateway = make_gateway(allow_write=True)
    args = {"task_id": TASK, "priority": 1}
    preview = gateway.exec("onto.task.update", args, dry_run=True)
    gateway.exec("onto.task.update", {"task_id": TASK, "title": "Someone else was here"})
    stale = gateway.exec("onto.task.update", args, state_digest=preview["meta"]["state_digest"])
    assert stale["error"]["code"] == "CONFLICT"
    fresh = gateway.exec("onto.task.update", args, dry_run=True)
    assert gateway.exec("onto.task.update", args, state_digest=fresh["meta"]["state_digest"])["ok"]


def test_confirmation_comes_from_the_approver_with_the_diff(make_gateway, store):
    refused = make_gateway(allow_write=True).exec("onto.task.delete", {"task_id": TASK})
    assert refused["error"]["code"] == "PERMISSION_DENIED"
    seen = []
    declined = make_gateway(allow_write=True, approver=lambda req: seen.append(req) or False).exec("onto.task.delete", {"task_id": TASK})
    assert declined["error"]["code"] == "PERMISSION_DENIED"
    assert seen[0].diff["deleted"][0]["id"] == TASK
    assert make_gateway(allow_write=True, approver=lambda req: True).exec("onto.task.delete", {"task_id": TASK})["ok"]
    assert make_gateway().exec("onto.task.get", {"task_id": TASK})["error"]["code"] == "NOT_FOUND"


def test_idempotency_key_replays_and_conflicts(make_gateway):
    gateway = make_gateway(allow_write=True)
    args = {"project_id": PROJECT, "title": "Exactly once"}
    first = gateway.exec("onto.task.create", args, idempotency_key="k1")
    again = gateway.exec("onto.task.create", args, idempotency_key="k1")
    assert again["meta"]["idempotent_replay"] is True
    assert again["result"]["task"]["id"] == first["result"]["task"]["id"]
    listed = gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 200})["result"]["tasks"]
    assert sum(t["title"] == "Exactly once" for t in listed) == 1
    other = gateway.exec("onto.task.create", {**args, "title": "Different"}, idempotency_key="k1")
    assert other["error"]["code"] == "CONFLICT"


def test_domain_failures_and_crashes_are_envelopes(make_gateway):
    gateway = make_gateway()
    assert gateway.exec("onto.goal.get", {"goal_id": "30000000-0000-4000-8000-000000000001"})["error"]["code"] == "NOT_FOUND"
    crash = gateway.exec("onto.plan.get", {"plan_id": "40000000-0000-4000-8000-000000000001"})
    assert crash["error"]["code"] == "INTERNAL"
    assert "boom" not in json.dumps(crash) and "Traceback" not in json.dumps(crash)


def test_odd_inputs_never_raise(make_gateway):
    gateway = make_gateway()
    for op, args in [(None, None), (42, {}), ("", {}), ("onto.task.list", [1, 2]), ("onto.task.list", "{bad json"), ("onto.task.list", '{"limit": 2}')]:
        envelope = gateway.exec(op, args)
        assert envelope["ok"] in (True, False)
        if not envelope["ok"]:
            assert envelope["error"]["code"] in ERROR_CODES
            assert envelope["error"]["help_path"]


def test_json_string_args_are_parsed_with_a_warning(make_gateway):
    envelope = make_gateway().exec("onto.task.list", '{"limit": 2}')
    assert envelope["ok"] and any("JSON string" in w for w in envelope["meta"]["warnings"])


def test_session_fills_the_current_project(make_gateway):
    gateway = make_gateway(allow_write=True)
    gateway.exec("onto.task.list", {"project_id": PROJECT})
    envelope = gateway.exec("onto.task.create", {"title": "Filled in"})
    assert envelope["ok"] and envelope["result"]["task"]["project_id"] == PROJECT
    assert any("project_id was missing" in w for w in envelope["meta"]["warnings"])


def test_calls_are_logged_for_history(make_gateway):
    gateway = make_gateway()
    gateway.exec("onto.task.list", {"limit": 3})
    gateway.exec("onto.nope", {})
    recent = gateway.recent_calls(5)
    assert recent[1]["args"] == {"limit": 3}
    assert [c["op"] for c in recent[:2]] == ["onto.nope", "onto.task.list"]
    assert recent[0]["ok"] is False and recent[0]["code"] == "NOT_FOUND"


def test_an_op_in_capitals_is_pointed_at_its_name(make_gateway):
    """help('ONTO.TASK.LIST') answers; exec named no op at all ('help() lists the groups'), as difflib
    compares letters case by case."""
    envelope = make_gateway().exec("ONTO.TASK.LIST", {})
    assert envelope["error"]["code"] == "NOT_FOUND"
    assert envelope["error"]["details"]["suggestions"][0] == "onto.task.list", envelope["error"]
    assert "Did you mean 'onto.task.list'?" in envelope["error"]["message"]


def test_a_dry_run_of_a_call_whose_key_has_an_answer_shows_that_nothing_would_change(make_gateway):
    """The dry-run replayed the first run's meta, so its diff said the task would be created (again) when the
    real call would only replay the stored answer and write nothing."""
    gateway = make_gateway(allow_write=True)
    args = {"project_id": PROJECT, "title": "Created once"}
    first = gateway.exec("onto.task.create", args, idempotency_key="k-dry")
    assert first["ok"] and first["meta"]["diff"]["created"], first
    rehearsal = gateway.exec("onto.task.create", args, idempotency_key="k-dry", dry_run=True)
    assert rehearsal["ok"] and rehearsal["meta"]["dry_run"] and rehearsal["meta"]["idempotent_replay"], rehearsal
    assert not any(rehearsal["meta"]["diff"].values()), rehearsal["meta"]["diff"]
    assert rehearsal["result"] == first["result"], "the answer the real call would give"
    assert any("idempotency key" in w and "nothing would be written" in w for w in rehearsal["meta"]["warnings"]), rehearsal["meta"]["warnings"]
