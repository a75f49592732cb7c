"""The interactive REPL driven by real keystrokes: type, Tab to complete, Enter, against a real store."""

from __future__ import annotations

import time

from hostile_catalog import write_control_catalog
from repl_helpers import RELAY, SPONSORS_TASK, TIDEWATER, tasks_of
from repl_driver import CTRL_C, ENTER, RIGHT, ReplDriver, wait_for

from opgate.core import Binding, Gateway, Registry
from opgate.core._record import replace
from opgate.core.exec import Handler


def test_tab_completes_an_op_and_a_project_by_name_and_enter_creates_the_task(gateway, tmp_path):
    gateway.allow_write = True
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.cre")
        repl.tab_until("exec onto.task.create")
        repl.type(" project_id=Rel")
        assert [c.display_text for c in repl.completions()] == ["Relay 2.0 Launch"]
        repl.tab_until(f"exec onto.task.create project_id={RELAY}")
        repl.type(" title='Typed by keys'")
        repl.enter_and_wait_for("ok  onto.task.create")
        assert repl.quit() == 0
    assert any(t["title"] == "Typed by keys" for t in tasks_of(gateway, RELAY))


def test_argument_names_come_required_first(gateway, tmp_path):
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.create ")
        assert [c.text for c in repl.completions()][:2] == ["project_id=", "title="]
        repl.tab_until("exec onto.task.create project_id=")
        repl.quit()


def test_cd_changes_where_relative_ops_are_found(gateway, tmp_path):
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("cd onto.ta")
        repl.tab_until("cd onto.task")
        repl.press(ENTER)
        repl.wait_for_prompt()
        repl.type("exec li")
        repl.tab_until("exec list")
        repl.type(" limit=1")
        repl.enter_and_wait_for("ok  onto.task.list")
        repl.quit()


def test_missing_required_arguments_are_asked_for_one_by_one(gateway, tmp_path):
    gateway.allow_write = True
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.create")
        repl.enter_and_wait_for("project_id (uuid, required): Project the new task belongs to.")
        repl.type("Tide")
        repl.tab_until(TIDEWATER)
        repl.enter_and_wait_for("title (string, required)")
        repl.type("Asked for, one by one")
        repl.enter_and_wait_for("ok  onto.task.create")
        repl.quit()
    assert any(t["title"] == "Asked for, one by one" for t in tasks_of(gateway, TIDEWATER))


def test_ctrl_c_while_asked_cancels_the_call(gateway, tmp_path):
    gateway.allow_write = True
    before = len(tasks_of(gateway, RELAY))
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.create")
        repl.enter_and_wait_for("project_id (uuid, required)")
        repl.press(CTRL_C)
        wait_for(lambda: "cancelled: onto.task.create needs project_id" in repl.output, "the cancel message")
        repl.wait_for_prompt()
        repl.quit()
    assert len(tasks_of(gateway, RELAY)) == before


def test_a_confirmation_defaults_to_no_and_yes_runs_it(gateway, tmp_path):
    gateway.allow_write = True
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type(f"exec onto.task.delete task_id={SPONSORS_TASK}")
        repl.enter_and_wait_for("needs your confirmation")
        assert '- deleted task "Find three sponsors" ' + SPONSORS_TASK in repl.output  # the diff, named, before the question
        repl.enter_and_wait_for("not confirmed; nothing was written")
        repl.wait_for_prompt()
        with gateway.store.read() as tx:
            assert tx.get("task", SPONSORS_TASK) is not None
        repl.type(f"exec onto.task.delete task_id={SPONSORS_TASK}")
        repl.press(ENTER)
        wait_for(lambda: repl.output.count("needs your confirmation") == 2, "the second question")
        repl.type("y")
        repl.enter_and_wait_for("ok  onto.task.delete")
        repl.quit()
    assert gateway.approver is None  # put back on the way out


def test_ctrl_c_drops_the_line_and_errors_do_not_end_the_loop(gateway, tmp_path):
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.list limit=1")
        repl.press(CTRL_C)
        repl.wait_for_prompt()
        repl.type("bogus")
        repl.enter_and_wait_for("unknown command 'bogus'")
        repl.wait_for_prompt()
        repl.type("ls")
        repl.enter_and_wait_for("util.")
        assert "onto.task.list" not in repl.output
        assert repl.quit() == 0


def test_history_persists_and_suggests_from_it(gateway, tmp_path):
    history = tmp_path / "history"
    with ReplDriver(gateway, history) as repl:
        repl.type("exec onto.task.list limit=1")
        repl.enter_and_wait_for("ok  onto.task.list")
        repl.quit()
    assert "exec onto.task.list limit=1" in history.read_text(encoding="utf-8")
    with ReplDriver(gateway, history) as repl:
        repl.type("exec onto.task.l")
        wait_for(lambda: repl.buffer.suggestion and repl.buffer.suggestion.text == "ist limit=1", "the history suggestion")
        repl.press(RIGHT)
        wait_for(lambda: repl.text == "exec onto.task.list limit=1", "the suggestion accepted")
        repl.press(ENTER)
        repl.wait_for_prompt()
        repl.type("history")
        repl.enter_and_wait_for("2  history")  # the repeated line is kept once
        repl.quit()


def test_bang_n_reruns_a_line_of_the_prompts_history(gateway, tmp_path):
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.list limit=1")
        repl.enter_and_wait_for("ok  onto.task.list")
        repl.wait_for_prompt()
        repl.type("history")
        repl.enter_and_wait_for("2  history")
        repl.wait_for_prompt()
        repl.type("!1")
        repl.enter_and_wait_for("again: exec onto.task.list limit=1")
        wait_for(lambda: repl.output.count("ok  onto.task.list") == 2, "the list to run a second time")
        assert repl.quit() == 0


def test_settings_use_the_explorers_words_and_errors_are_short_until_verbose(gateway, tmp_path):
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.get task_id=nope")
        repl.enter_and_wait_for("set verbose on shows the details")
        repl.wait_for_prompt()
        assert "usage" not in repl.output
        repl.type("set verbose on")
        repl.enter_and_wait_for("verbose on")
        repl.wait_for_prompt()
        repl.type("set writes on")
        repl.enter_and_wait_for("writes on   context all")
        repl.wait_for_prompt()
        assert gateway.allow_write
        repl.type("exec onto.task.get task_id=nope")
        repl.enter_and_wait_for("usage")
        assert repl.quit() == 0


def test_a_no_at_the_confirmation_is_said_once_and_is_not_an_error(gateway, tmp_path):
    gateway.allow_write = True
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type(f"exec onto.task.delete task_id={SPONSORS_TASK}")
        repl.enter_and_wait_for("needs your confirmation")
        repl.enter_and_wait_for("not confirmed; nothing was written")
        repl.wait_for_prompt()
        repl.type(f"exec onto.task.delete task_id={SPONSORS_TASK}")
        repl.press(ENTER)
        wait_for(lambda: repl.output.count("needs your confirmation") == 2, "the second question")
        repl.press(CTRL_C)
        wait_for(lambda: repl.output.count("not confirmed; nothing was written") == 2, "the second no")
        repl.wait_for_prompt()
        repl.quit()
    assert "PERMISSION_DENIED" not in repl.output and "did not confirm" not in repl.output, repl.output


def test_an_upstream_that_did_not_start_is_said_before_the_first_prompt(tmp_path):
    import json

    from opgate.core import Gateway
    from opgate.core.executors.mcp import Upstreams

    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps({"mcpServers": {"ghost": {"command": str(tmp_path / "no-such-server")}}}), encoding="utf-8")
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([servers]))
    try:
        with ReplDriver(gateway, tmp_path / "history") as repl:
            repl.wait_for_prompt()
            repl.quit()
    finally:
        gateway.close()
    first = repl.output.split("opgate>")[0]
    assert "upstream ghost" in first and "not found" in first, repl.output


def test_an_error_at_80_columns_wraps_between_words(gateway, tmp_path):
    """The terminal folded a short error's long line inside a word ("w" / "rites are off"): rich wraps it at the width."""
    with ReplDriver(gateway, tmp_path / "history", width=80) as repl:
        repl.type(f"exec onto.task.create project_id={RELAY} title='Wrapped'")
        repl.enter_and_wait_for("set writes on lets it write")
        lines = repl.output.splitlines()
        assert all(len(line) <= 80 for line in lines), "\n".join(line for line in lines if len(line) > 80)
        assert "allow_write is false" in " ".join(repl.output.split()), repl.output
        assert repl.quit() == 0


def test_the_first_prompt_says_what_to_type(gateway, tmp_path):
    with ReplDriver(gateway, tmp_path / "history", width=80) as repl:
        wait_for(lambda: repl.text == "", "the first prompt")
        first = repl.output.splitlines()[0]
        assert first.startswith("opgate repl · 68 ops") and "help lists the commands" in first and "Ctrl-D leaves" in first, first
        assert len(first) <= 80
        assert repl.quit() == 0


def test_a_misnamed_argument_is_refused_at_once_rather_than_asking_for_the_missing_one(gateway, tmp_path):
    """``query=`` where the op takes ``search``: asking for ``search`` would take the next line typed as its value."""
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type("exec onto.task.search query=markup")
        repl.enter_and_wait_for("unknown argument 'query'")
        repl.wait_for_prompt()
        repl.quit()
    assert "search (string, required)" not in repl.output


def _slow_gateway(tmp_path, seconds: float) -> Gateway:
    """A catalogue op bound to a handler that takes ``seconds`` to answer."""
    loaded = Gateway.from_catalogs([write_control_catalog(tmp_path, "slow")], db_path=tmp_path / "w.db").registry
    registry = Registry([replace(r, binding=Binding("store")) for r in loaded], loaded.problems, group_summaries=loaded.group_summaries)
    handlers = {r.op: Handler(lambda ctx, args: time.sleep(seconds) or {"slept": seconds}) for r in registry}
    return Gateway(registry, db_path=tmp_path / "w.db", handlers=handlers)


def test_a_call_still_running_after_a_moment_says_so(tmp_path):
    """The explorer's bar says "running OP…"; the REPL printed nothing until the answer, and a slow upstream looked hung."""
    gateway = _slow_gateway(tmp_path, 2.0)
    try:
        with ReplDriver(gateway, tmp_path / "history") as repl:
            repl.type("exec sneaky.sneaky.get")
            repl.enter_and_wait_for("running sneaky.sneaky.get… (Ctrl-C cancels)")
            assert "ok  sneaky.sneaky.get" not in repl.output, "said while the call runs, not after"
            wait_for(lambda: "ok  sneaky.sneaky.get" in repl.output, "the answer")
            repl.wait_for_prompt()
            assert repl.output.index("running sneaky.sneaky.get") < repl.output.index("ok  sneaky.sneaky.get")
            repl.quit()
    finally:
        gateway.close()


def test_a_quick_call_and_a_question_asked_during_a_call_get_no_running_line(gateway, tmp_path):
    gateway.allow_write = True
    with ReplDriver(gateway, tmp_path / "history") as repl:
        repl.type(f"exec onto.task.list project_id={RELAY}")
        repl.enter_and_wait_for("ok  onto.task.list")
        repl.wait_for_prompt()
        repl.type(f"exec onto.task.delete task_id={SPONSORS_TASK}")
        repl.enter_and_wait_for("needs your confirmation")
        time.sleep(1.5)  # longer than the notice waits: the question is on the terminal, nothing may print over it
        repl.enter_and_wait_for("not confirmed; nothing was written")
        repl.wait_for_prompt()
        assert "running" not in repl.output
        repl.quit()
