"""``opgate repl < script.txt`` in a real subprocess: lines echoed, output shown, exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from repl_helpers import RELAY

PASSING = f"""# a passing script
cd onto.task
exec list limit=2
help create
set writes on
exec create project_id={RELAY} title='From a script' priority=4
"""

FAILING = """ls
exec onto.task.lst
frobnicate now
ls
"""


def run(tmp_path: Path, script: str, *options: str) -> subprocess.CompletedProcess:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    with path.open(encoding="utf-8") as stdin:
        return subprocess.run(
            [sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "repl", *options],
            stdin=stdin, capture_output=True, text=True, timeout=120,
        )


def test_a_passing_script_echoes_each_line_and_exits_0(tmp_path):
    result = run(tmp_path, PASSING)
    assert result.returncode == 0, result.stdout + result.stderr
    out = result.stdout
    assert "opgate> cd onto.task" in out
    assert "opgate:onto.task> exec list limit=2" in out and "ok  onto.task.list" in out
    assert "opgate:onto.task> exec create project_id=" in out and "ok  onto.task.create" in out
    assert "From a script" in out
    assert "a passing script" not in out  # comments are skipped
    assert result.stderr == ""


def test_a_failing_script_runs_every_line_and_exits_1(tmp_path):
    result = run(tmp_path, FAILING)
    assert result.returncode == 1
    out = result.stdout
    assert "NOT_FOUND onto.task.lst: There is no op 'onto.task.lst'. Did you mean 'onto.task.list'?" in out
    assert "unknown command 'frobnicate'" in out
    assert out.count("opgate> ls") == 2  # the loop went on after both failures
    assert "2 of 4 commands failed" in out
    assert "Traceback" not in out + result.stderr


def test_stop_on_error_ends_the_script_at_the_first_failure(tmp_path):
    result = run(tmp_path, FAILING, "--stop-on-error")
    assert result.returncode == 1
    assert "stopped at the first failure (--stop-on-error): exec onto.task.lst" in result.stdout
    assert "frobnicate" not in result.stdout, "nothing after the failing line ran"


def test_an_error_takes_three_lines_unless_verbose(tmp_path):
    short = run(tmp_path, "exec onto.task.create project_id=nope title=x due_at=soon priority=9\n").stdout
    error_lines = short.split("\n")[1:4]
    assert error_lines[0].startswith("VALIDATION_ERROR onto.task.create: 3 problems") and "(+1 more)" in error_lines[1]
    assert "set verbose on" in error_lines[2] and "usage" not in short
    verbose = run(tmp_path, "exec onto.task.create project_id=nope title=x due_at=soon priority=9\n", "--verbose").stdout
    assert "usage" in verbose and "args.priority" in verbose


def test_bang_n_runs_a_history_line_again(tmp_path):
    out = run(tmp_path, "exec onto.task.list limit=1\nls\n!1\n!!\n!7\n").stdout
    assert out.count("ok  onto.task.list") == 3, "!1 and then !! (which repeats !1) ran the list again"
    assert "!7: no such history line" in out


def test_the_repl_command_closes_the_gateway_it_made(tmp_path, monkeypatch, capsys):
    # `opgate repl` opens the gateway, so it closes it when the loop ends, as `opgate explore` does:
    # left open, its call-log writer (and any handler workers and upstream connections) outlive the REPL.
    import io
    import threading

    from opgate.cli import main

    monkeypatch.setattr(sys, "stdin", io.StringIO("exec onto.task.list limit=1\n"))
    before = set(threading.enumerate())
    assert main(["--db", str(tmp_path / "w.db"), "repl"]) == 0
    assert "ok  onto.task.list" in capsys.readouterr().out
    still_writing = [thread for thread in set(threading.enumerate()) - before if thread.name == "opgate-call-log"]
    assert still_writing == [], "the REPL left its gateway open"
