"""Each command, run as lines of a script against a real workspace."""

from __future__ import annotations

import json
import re

from repl_helpers import RELAY, SPONSORS_TASK, TIDEWATER, run_script_text, tasks_of

from opgate.core import Gateway


def test_cd_and_ls_move_through_the_namespace_and_the_prompt_follows(shared_gateway):
    status, out = run_script_text(shared_gateway, "ls\ncd onto\ncd task\nls\ncd ..\ncd /\ncd /onto.task\ncd ../..\nls\n")
    assert status == 0
    for prompt in ("opgate> ls", "opgate:onto> cd task", "opgate:onto.task> ls", "opgate:onto.task> cd ..", "opgate:onto> cd /", "opgate> cd /onto.task", "opgate> ls"):
        assert prompt in out
    assert "onto." in out and "create" in out


def test_cd_to_an_op_or_nowhere_fails_and_says_why(shared_gateway):
    status, out = run_script_text(shared_gateway, "cd onto.task.list\ncd onto.tsk\n")
    assert status == 1
    assert "onto.task.list is an op, not a group" in out
    assert "closest: onto.task" in out


def test_exec_an_op_relative_to_the_current_path_and_lists_print_as_tables(shared_gateway):
    status, out = run_script_text(shared_gateway, "cd onto.task\nexec list limit=2 state_key=in_progress\n")
    assert status == 0
    assert "ok  onto.task.list" in out
    assert "Find three sponsors" in out and "│" in out  # a table, not JSON
    assert '"total"' in out


def test_set_format_json_prints_the_whole_result_as_json(shared_gateway):
    status, out = run_script_text(shared_gateway, "set format json\nexec onto.task.list limit=1\n")
    assert status == 0
    assert '"tasks": [' in out and "│" not in out


def test_arguments_are_typed_by_the_schema_and_quoted_as_a_shell_would(gateway):
    script = f"set writes on\nexec onto.task.create project_id={RELAY} title='Write the press kit' priority=2 props='{{\"channels\": [\"radio\", \"web\"]}}'\n"
    status, out = run_script_text(gateway, script)
    assert status == 0, out
    task = next(t for t in tasks_of(gateway, RELAY) if t["title"] == "Write the press kit")
    assert task["priority"] == 2
    props = json.loads(task["props"]) if isinstance(task["props"], str) else task["props"]
    assert props == {"channels": ["radio", "web"]}


def test_exec_with_a_json_object_over_several_lines(gateway):
    script = f'set writes on\nexec onto.task.create {{"project_id": "{TIDEWATER}",\n  "title": "Outline chapter nine"}}\n'
    status, out = run_script_text(gateway, script)
    assert status == 0, out
    assert any(t["title"] == "Outline chapter nine" for t in tasks_of(gateway, TIDEWATER))


def test_dry_shows_the_diff_and_writes_nothing(gateway):
    status, out = run_script_text(gateway, f"dry onto.task.update task_id={SPONSORS_TASK} state_key=done\n")
    assert status == 0
    assert "dry-run: nothing was written" in out and '~ updated task "Find three sponsors"' in out and 'state_key: "in_progress" → "done"' in out
    with gateway.store.read() as tx:
        assert tx.get("task", SPONSORS_TASK)["state_key"] == "in_progress"


def test_a_write_while_writes_are_off_fails_and_the_script_exits_1(gateway):
    status, out = run_script_text(gateway, f"exec onto.task.create project_id={RELAY} title=x\nls\n")
    assert status == 1
    assert "PERMISSION_DENIED" in out and "1 of 2 commands failed" in out
    assert "opgate> ls" in out  # the next line still ran


def test_errors_show_the_closest_names_and_the_help_pointer(shared_gateway):
    status, out = run_script_text(shared_gateway, "exec onto.task.lst\nhelp onto.tsk\nexe onto.task.list\n")
    assert status == 1
    assert "Did you mean 'onto.task.list'?" in out and "help onto.task.list" in out
    assert "closest: onto.task" in out
    assert "unknown command 'exe'" in out and "closest: exec" in out


def test_an_argument_that_does_not_read_is_a_failure_not_a_crash(shared_gateway):
    status, out = run_script_text(shared_gateway, "exec onto.task.list title='open\nexec onto.task.list limit\n")
    assert status == 1
    assert "close the quote" in out and "is not key=value" in out


def test_help_is_relative_too_and_knows_the_commands(shared_gateway):
    status, out = run_script_text(shared_gateway, "cd onto.task\nhelp create\nhelp batch\nhelp\n")
    assert status == 0
    assert "usage: onto.task.create project_id=<uuid>" in out
    assert "batch [FILE]" in out
    assert "commands: help, ls, cd" in out


def test_search_fills_in_the_next_line_with_a_suggested_call(shared_gateway):
    from opgate.repl._commands import suggested_call

    payload = shared_gateway.search("mark the task done", limit=3)
    assert suggested_call(payload) == "exec onto.task.update state_key=done "
    assert suggested_call(shared_gateway.search("list tasks", limit=3)) == ""
    status, out = run_script_text(shared_gateway, "search mark the task done\n")
    assert status == 0 and "state_key=done" in out


def test_search_prints_the_ranked_ops(shared_gateway):
    status, out = run_script_text(shared_gateway, "search create a task\nsearch\n")
    assert status == 1  # the bare `search` failed
    assert "onto.task.create" in out and "search what?" in out


def test_batch_reads_steps_until_a_blank_line(gateway):
    script = f"set writes on\nbatch\nexec onto.task.create project_id={RELAY} title='From a batch'\nhelp onto.goal\n\nls\n"
    status, out = run_script_text(gateway, script)
    assert status == 0, out
    assert "batch> help onto.goal" in out and "step 1" in out
    assert any(t["title"] == "From a batch" for t in tasks_of(gateway, RELAY))


def test_batch_from_a_file_of_lines_or_json(tmp_path, shared_gateway):
    lines = tmp_path / "steps.txt"
    lines.write_text("# two reads\nexec onto.task.list limit=1\nhelp onto.task\n", encoding="utf-8")
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps({"steps": [{"tool": "exec", "args": {"op": "onto.nope"}}, {"tool": "help", "args": {"path": "onto"}}], "on_error": "continue"}), encoding="utf-8")
    status, out = run_script_text(shared_gateway, f"batch {lines}\n")
    assert status == 0 and "step 1" in out
    status, out = run_script_text(shared_gateway, f"batch {steps}\n")
    assert status == 1 and "NOT_FOUND" in out and "step 1" in out
    status, out = run_script_text(shared_gateway, f"batch {tmp_path / 'missing.txt'}\n")
    assert status == 1 and "batch not run" in out
    misspelt = tmp_path / "misspelt.json"
    misspelt.write_text(json.dumps({"steps": [{"tool": "help", "args": {"path": "onto"}}], "on_eror": "continue"}), encoding="utf-8")
    status, out = run_script_text(shared_gateway, f"batch {misspelt}\n")
    assert status == 1 and "batch not run" in out and "'on_eror'" in out, out


def test_set_context_writes_and_the_settings_line(shared_gateway):
    status, out = run_script_text(shared_gateway, "set context project\nset\nset context all\nset context projekt\nset colour blue\n")
    assert status == 1
    assert "context project" in out and "closest: project" in out and "there is no setting 'colour'" in out
    assert shared_gateway.context is None


def test_the_settings_have_the_explorers_names_and_the_old_ones_still_work(shared_gateway):
    status, out = run_script_text(shared_gateway, "set writes on\nset scope project\nset allow_write off\nset scope all\n")
    assert status == 0
    assert "writes on   context all" in out and "writes off   context project" in out
    assert not shared_gateway.allow_write and shared_gateway.context is None


def test_a_confirmation_cannot_be_given_by_a_script(gateway):
    status, out = run_script_text(gateway, f"set writes on\nexec onto.task.delete task_id={SPONSORS_TASK}\n")
    assert status == 1
    assert "a script cannot give it" in out
    with gateway.store.read() as tx:
        assert tx.get("task", SPONSORS_TASK) is not None
    assert gateway.approver is None  # put back as it was


def test_history_lists_the_lines_and_the_calls(shared_gateway):
    status, out = run_script_text(shared_gateway, "ls\nexec onto.task.list limit=1\nhistory\nhistory calls 5\nhistory many\n")
    assert status == 1
    assert "2  exec onto.task.list limit=1" in out
    assert "onto.task.list" in out and "outcome" in out and "limit=1" in out
    assert "history takes a number" in out


def test_history_calls_shows_arguments_and_filters_by_op_outcome_and_text(shared_gateway):
    script = (
        "exec onto.task.list limit=2\n"
        "dry onto.task.create title=x\n"
        "exec onto.project.list\n"
        "history calls 10 op:task is:failed is:dry-run\n"
        "history calls 10 limit=2\n"
        "history calls is:maybe\n"
    )
    status, out = run_script_text(shared_gateway, script)
    failed_dry, by_text, bad = out.split("opgate> history calls")[1:]
    # The refused dry-run is logged as a dry-run, and only it matches.
    assert "onto.task.create" in failed_dry and "VALIDATION_ERROR" in failed_dry and "dry-run" in failed_dry
    assert "onto.project.list" not in failed_dry and "onto.task.list" not in failed_dry
    assert "onto.task.list" in by_text and "onto.task.create" not in by_text
    assert "is:maybe is not an outcome" in bad


def test_quit_stops_the_script(shared_gateway):
    status, out = run_script_text(shared_gateway, "quit\nbogus\n")
    assert status == 0 and "bogus" not in out


def test_no_error_ends_the_loop_and_none_prints_a_traceback(tmp_path):
    broken = Gateway(db_path=tmp_path)  # a folder: every store call fails
    try:
        status, out = run_script_text(broken, "history calls\nexec onto.task.list\nls\n")
    finally:
        broken.close()  # open, its call log would retry the folder until the interpreter exits
    assert status == 1
    assert "history failed: storage error" in out and "StoreError" not in out, "the short form drops the class name"
    assert "opgate> ls" in out and "onto." in out
    assert "Traceback" not in out


def test_an_unknown_op_is_named_before_its_arguments_are_judged(shared_gateway):
    status, out = run_script_text(shared_gateway, "exec onto.task notakv\n")
    assert status == 1
    assert "NOT_FOUND" in out and "Did you mean 'onto.task.get'" in out, out
    assert "is not key=value" not in out


def test_a_write_refused_because_writes_are_off_says_how_to_turn_them_on(gateway):
    status, out = run_script_text(gateway, f"exec onto.task.create title=x project_id={RELAY}\nset verbose on\nexec onto.task.create title=x project_id={RELAY}\n")
    assert status == 1
    assert out.count("set writes on lets it write") == 2, out
    assert "--allow-write" not in out, "that is the command line's flag, not the REPL's"


def test_a_group_of_one_op_says_one_op(shared_gateway):
    status, out = run_script_text(shared_gateway, "ls util\n")
    assert status == 0
    assert "1 op " in out and "1 ops" not in out, out


def test_an_unknown_help_path_says_the_command_to_type_next(shared_gateway):
    status, out = run_script_text(shared_gateway, "help onto.nope\n")
    assert status == 1
    assert "next: help onto.output" in out and "help(path=" not in out, out


def test_a_list_answer_prints_as_a_table_with_its_count_not_a_json_stub():
    """An upstream that answers a bare list (an OpenAPI "find pets") printed ``{"rows": 1}`` above the table."""
    import io

    from rich.console import Console

    from opgate.repl._render import render_call

    envelope = {"op": "pets.pet.find", "ok": True, "result": [{"name": "Rex", "id": 7}], "meta": {"trace_id": "tr_1", "latency_ms": 3.0, "warnings": []}}
    console = Console(file=io.StringIO(), width=80, color_system=None)
    console.print(render_call(envelope, "table"))
    shown = console.file.getvalue()
    assert '"rows"' not in shown and "{" not in shown, shown
    assert shown.splitlines()[0].startswith("ok  pets.pet.find") and "1 row" in shown and "Rex" in shown, shown


def test_a_handler_error_naming_a_field_keeps_its_own_message():
    """A handler's CONFLICT with a field read '1 problem with the arguments', hiding what the handler said."""
    import io

    from rich.console import Console

    from opgate.repl._render import render_call

    conflict = {"op": "shop.order.create", "ok": False, "error": {"code": "CONFLICT", "message": "order 17 is already paid", "help_path": "shop.order.create",
                                                                  "details": {"field_errors": [{"field": "args.order", "message": "already paid"}]}}}
    refusal = {"op": "onto.task.get", "ok": False, "error": {"code": "VALIDATION_ERROR", "message": "1 problem with the arguments of onto.task.get: missing id",
                                                             "details": {"field_errors": [{"field": "args.id", "message": "missing required argument 'id'"}]}}}
    shown = []
    for envelope in (conflict, refusal):
        console = Console(file=io.StringIO(), width=100, color_system=None)
        console.print(render_call(envelope, "table"))
        shown.append(console.file.getvalue())
    assert shown[0].splitlines()[0] == "CONFLICT shop.order.create: order 17 is already paid" and "args.order: already paid" in shown[0], shown[0]
    assert shown[1].splitlines()[0] == "VALIDATION_ERROR onto.task.get: 1 problem with the arguments", shown[1]


def test_history_calls_names_the_ids_and_finds_calls_by_those_names(shared_gateway):
    project = "10000000-0000-4000-8000-000000000001"
    script = f"exec onto.task.list project_id={project} limit=1\nexec onto.project.list\nhistory calls 10 relay\n"
    status, out = run_script_text(shared_gateway, script)
    listed = out.split("opgate> history calls")[1]
    assert '"Relay 2.0 Launch" 1000…0001' in listed, listed
    assert "onto.task.list" in listed and "onto.project.list" not in listed


def test_history_calls_at_80_columns_keeps_the_time_of_day(shared_gateway):
    status, out = run_script_text(shared_gateway, "exec onto.project.list\nhistory calls 1\n", width=80)
    listed = out.split("opgate> history calls")[1]
    assert re.search(r"\d\d-\d\d \d\d:\d\d:\d\d", listed), listed


def test_the_command_lines_dry_run_flag_points_to_dry_and_runs_nothing(gateway):
    """``exec OP ... --dry-run`` (the explorer copies calls as opgate exec lines) said only that '--dry-run' is not key=value."""
    status, out = run_script_text(gateway, f"exec onto.task.update task_id={SPONSORS_TASK} state_key=done --dry-run\n")
    assert status == 1
    assert "--dry-run is the command line's flag; here, dry-run with: dry onto.task.update key=value ..." in out
    assert "help: help dry" in out and "not key=value" not in out
    with gateway.store.read() as tx:
        assert tx.get("task", SPONSORS_TASK)["state_key"] == "in_progress"
