"""``opgate repl < script.txt`` in a real subprocess: lines echoed, output shown, exit status."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import RELAY

PASSING = f"""# a passing script
cd onto.task
exec list limit=2
help create
set allow_write on
exec create project_id={RELAY} title='From a script' priority=4
"""

FAILING = """ls
exec onto.task.lst
frobnicate now
ls
"""


def run(tmp_path: Path, script: str) -> subprocess.CompletedProcess:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    with path.open(encoding="utf-8") as stdin:
        return subprocess.run(
            [sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "repl"],
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
    assert "NOT_FOUND  onto.task.lst" in out and "Did you mean 'onto.task.list'?" in out
    assert "unknown command 'frobnicate'" in out
    assert out.count("opgate> ls") == 2  # the loop went on after both failures
    assert "2 of 4 commands failed" in out
    assert "Traceback" not in out + result.stderr
