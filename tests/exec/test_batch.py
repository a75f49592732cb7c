"""batch: one envelope per step, references, stop/continue, no nesting, concurrency of reads."""

from __future__ import annotations

PROJECT = "10000000-0000-4000-8000-000000000001"


def test_steps_run_in_order_with_references(make_gateway):
    gateway = make_gateway(allow_write=True)
    envelopes = gateway.batch([
        {"tool": "help", "args": {"path": "onto.task.create"}},
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "From a batch"}}},
        {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "$1.result.task.id"}}},
    ])
    assert [e["step"] for e in envelopes] == [0, 1, 2]
    assert all(e["ok"] for e in envelopes), envelopes
    assert envelopes[0]["result"]["op"] == "onto.task.create"
    assert envelopes[2]["result"]["task"]["title"] == "From a batch"


def test_stop_skips_the_rest_and_continue_does_not(make_gateway):
    gateway = make_gateway(allow_write=True)
    steps = [
        {"tool": "exec", "args": {"op": "onto.task.list", "args": {"nope": 1}}},
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "After a failure"}}},
    ]
    stopped = gateway.batch(steps)
    assert stopped[0]["error"]["code"] == "VALIDATION_ERROR"
    assert stopped[1]["ok"] is False and "not run" in stopped[1]["error"]["message"]
    continued = gateway.batch(steps, on_error="continue")
    assert continued[1]["ok"] is True


def test_unresolvable_reference_is_a_step_error(make_gateway):
    envelopes = make_gateway().batch([
        {"tool": "exec", "args": {"op": "onto.task.list", "args": {"limit": 1}}},
        {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "$0.result.tasks[5].id"}}},
    ])
    assert envelopes[1]["error"]["code"] == "VALIDATION_ERROR"
    assert "[5] does not exist" in envelopes[1]["error"]["message"]


def test_a_batch_cannot_contain_a_batch(make_gateway):
    envelopes = make_gateway().batch([{"tool": "batch", "args": {"steps": []}}])
    assert envelopes[0]["error"]["code"] == "VALIDATION_ERROR"
    assert "cannot contain a batch" in envelopes[0]["error"]["message"]


def test_bad_batches_are_envelopes(make_gateway):
    gateway = make_gateway()
    for steps in (None, [], "x", [{"tool": "exec", "args": "x"}], [1]):
        envelopes = gateway.batch(steps)
        assert envelopes and all(e["ok"] is False for e in envelopes)
    assert gateway.batch([{"tool": "help", "args": {}}], on_error="maybe")[0]["error"]["code"] == "VALIDATION_ERROR"


def test_reads_are_grouped_and_writes_are_barriers(make_gateway):
    from concurrent.futures import ThreadPoolExecutor

    from opgate.core.exec._batch import BatchRunner

    gateway = make_gateway()
    runner = BatchRunner(help_fn=gateway.help, exec_fn=gateway.exec, is_read=lambda op: op.endswith((".list", ".get")), max_steps=50, pool=ThreadPoolExecutor(3))
    read = {"tool": "exec", "args": {"op": "onto.task.list", "args": {}}}
    write = {"tool": "exec", "args": {"op": "onto.task.create", "args": {}}}
    dependent = {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "$0.result.tasks[0].id"}}}
    assert runner._segments([read, read, write, read, read]) == [[0, 1], [2], [3, 4]]
    assert runner._segments([read, dependent, read]) == [[0], [1, 2]]


def test_deeply_nested_step_arguments_are_a_step_error_not_an_exception(make_gateway):
    deep: dict = {"task_id": "$0.result.tasks[0].id"}
    for _ in range(3000):  # far past Python's recursion limit
        deep = {"a": deep}
    steps = [{"tool": "exec", "args": {"op": "onto.task.list", "args": {"project_id": PROJECT, "limit": 1}}},
             {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "$0.result.tasks[0].id", "x": deep}}}]
    envelopes = make_gateway().batch(steps)
    assert envelopes[0]["ok"]
    assert envelopes[1]["error"]["code"] == "VALIDATION_ERROR"
    assert envelopes[1]["error"]["details"]["field_errors"][0]["code"] == "too_deep"


def test_a_step_whose_answer_comes_later_stops_the_batch_and_a_resumed_batch_runs_no_step_twice(make_gateway):
    """The core of a 2026-07-28 confirmation across server processes (opgate/mcp_server/_input_required.py)."""
    from opgate.core.exec import PermissionDenied, awaits_confirmation, resuming_batch

    def asks_later(request):
        raise PermissionDenied(f"{request.op}: the answer comes with the next call", requires_confirmation=True, awaiting_confirmation=True)

    victim = "20000000-0000-4000-8000-000000000003"
    steps = [
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "before the question"}}},
        {"tool": "exec", "args": {"op": "onto.task.delete", "args": {"task_id": victim}}},
        {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "$0.result.task.id"}}},
    ]
    asking = make_gateway(allow_write=True, approver=asks_later)
    first = asking.batch(steps, on_error="continue")
    assert first[0]["ok"] and awaits_confirmation(first[1])
    assert first[2]["ok"] is False and "waits for a person's confirmation of step 1" in first[2]["error"]["message"], "even with on_error=continue"
    gateway = make_gateway(allow_write=True, approver=lambda request: True)
    with resuming_batch({0: first[0]}):
        resumed = gateway.batch(steps, on_error="continue")
    assert [e["ok"] for e in resumed] == [True, True, True], resumed
    assert resumed[0] == first[0], "the step before the question is answered as it was, not run again"
    assert resumed[2]["result"]["task"]["id"] == first[0]["result"]["task"]["id"]
    listed = gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 200})
    titled = listed["result"]["tasks"]
    assert sum(1 for task in titled if task["title"] == "before the question") == 1
    assert not gateway.exec("onto.task.get", {"task_id": victim})["ok"]


def test_a_steps_flags_are_true_or_false_as_the_tools_require(make_gateway):
    """The exec tool refuses "dry_run": "false"; a batch step ran it as a dry run ("false" is truthy), and "dry_run": 0 as a
    real write. help's include_examples took "yes" the same way. Each is now the step's VALIDATION_ERROR, and nothing runs."""
    gateway = make_gateway(allow_write=True)
    before = gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 200})["result"]["total"]
    steps = [
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "flag"}, "dry_run": "false"}},
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "flag"}, "dry_run": 0}},
        {"tool": "help", "args": {"path": "onto.task.create", "include_examples": "yes"}},
    ]
    envelopes = gateway.batch(steps, on_error="continue")
    for index, envelope in enumerate(envelopes):
        error = envelope["error"]
        assert error["code"] == "VALIDATION_ERROR" and "expected true or false" in error["message"], envelope
        [row] = error["details"]["field_errors"]
        assert row["field"].startswith(f"args.steps[{index}].args.") and row["expected"] == "boolean", row
    assert gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 200})["result"]["total"] == before
    assert gateway.batch([{"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "flag"}, "dry_run": True}}])[0]["meta"]["dry_run"] is True


def test_a_step_that_cannot_find_what_an_earlier_dry_run_created_is_told_why(make_gateway):
    """Each dry-run step rolls back its own transaction: a later step referring to the goal it 'created' got
    NOT_FOUND 'no goal has id ...', with nothing to say that the goal had been a rehearsal."""
    gateway = make_gateway(allow_write=True, handlers=None)  # the built-in handlers: goals too
    envelopes = gateway.batch([
        {"tool": "exec", "args": {"op": "onto.goal.create", "args": {"project_id": PROJECT, "name": "Rehearsed"}, "dry_run": True}},
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "goal_id": "$0.result.goal.id", "title": "t"}, "dry_run": True}},
    ])
    assert envelopes[0]["ok"], envelopes[0]
    error = envelopes[1]["error"]
    assert error["code"] == "NOT_FOUND"
    assert error["details"]["dry_run_steps"] == [0], error
    assert "step 0 was a dry-run" in error["message"] and "rolled back" in error["message"], error


def test_a_step_that_fails_for_its_own_reasons_after_a_dry_run_is_not_blamed_on_it(make_gateway):
    gateway = make_gateway(allow_write=True, handlers=None)
    envelopes = gateway.batch([
        {"tool": "exec", "args": {"op": "onto.goal.create", "args": {"project_id": PROJECT, "name": "Rehearsed"}, "dry_run": True}},
        {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "20000000-0000-4000-8000-00000000ffff"}}},
    ], on_error="continue")
    error = envelopes[1]["error"]
    assert error["code"] == "NOT_FOUND" and "dry_run_steps" not in error["details"] and "dry-run" not in error["message"], error
