"""``opgate run`` in a subprocess, as CI runs it: exit status, the printed report, and JUnit XML."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

from collection_helpers import PROJECT, REPO, write


def _opgate(*args: str, cwd, home, columns: int = 120, **env_vars: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "OPGATE_HOME": str(home), "XDG_DATA_HOME": str(home), "COLUMNS": str(columns), **env_vars}
    return subprocess.run([sys.executable, "-m", "opgate", *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def test_the_demo_collection_passes_as_a_dry_run_on_a_fresh_workspace(tmp_path):
    """Exactly the command of the issue, on a workspace that does not exist yet."""
    db = tmp_path / "fresh.db"
    done = _opgate("--db", str(db), "run", "fixtures/collections/demo", "--dry-run", "--junit", str(tmp_path / "report.xml"), cwd=REPO, home=tmp_path / "home")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "passed, 0 failed" in done.stdout and "the workspace was not written" in done.stdout
    suite = ET.parse(tmp_path / "report.xml").getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) >= 5 and suite.get("failures") == "0"
    assert all(case.find("failure") is None for case in cases)
    assert cases[0].get("name").startswith("010_list_projects.toml")


def test_the_shipped_demo_runs_by_name(tmp_path):
    done = _opgate("--db", str(tmp_path / "w.db"), "run", "demo", "--dry-run", cwd=tmp_path, home=tmp_path / "home")
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_report_at_80_columns_keeps_file_names_and_ops_whole(tmp_path):
    """At a terminal (TTY_COMPATIBLE: rich treats the pipe as one) the report ends with a table."""
    done = _opgate("--db", str(tmp_path / "w.db"), "run", "demo", "--dry-run", cwd=tmp_path, home=tmp_path / "home", columns=80, TTY_COMPATIBLE="1", NO_COLOR="1")
    assert done.returncode == 0, done.stdout + done.stderr
    plain = re.sub(r"\x1b\[[0-9;]*m", "", done.stdout)
    table = plain[plain.index("demo (dry-run)"):]
    assert all(len(line) <= 80 for line in table.splitlines()), table
    for whole in ("040_start_task.toml", "onto.task.update", "010_list_projects.toml", "onto.project.list"):
        assert whole in table, f"{whole} is folded:\n{table}"
    assert "…" not in table, "nothing is cut off: a long id folds onto the next line"


def test_a_failing_collection_exits_1_and_the_xml_carries_the_failure(tmp_path):
    folder = write(tmp_path / "c", {
        "010_list.toml": 'op = "onto.project.list"\n[expect.result]\n"/total" = 99\n',
        "020_ok.toml": 'op = "onto.project.list"\n',
    })
    done = _opgate("--db", str(tmp_path / "w.db"), "run", str(folder), "--junit", str(tmp_path / "r.xml"), cwd=tmp_path, home=tmp_path / "home")
    assert done.returncode == 1
    assert "FAIL 010_list.toml" in done.stdout and "expected result /total = 99; found 3" in done.stdout
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    failed, passed = suite.findall("testcase")
    assert suite.get("failures") == "1" and passed.find("failure") is None
    assert "result /total = 99: found 3" in failed.find("failure").get("message")


def test_a_collection_that_cannot_load_exits_2_with_every_problem_and_no_traceback(tmp_path):
    folder = write(tmp_path / "c", {"010_a.toml": 'op = "x"\n[args]\nid = "$missing.result"\n', "020_b.toml": "op = [\n"})
    done = _opgate("--db", str(tmp_path / "w.db"), "run", str(folder), cwd=tmp_path, home=tmp_path / "home")
    assert done.returncode == 2
    assert "010_a.toml: args.id: $missing names no call" in done.stdout and "020_b.toml: is not valid TOML" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr
    bad_env = _opgate("--db", str(tmp_path / "w.db"), "run", str(folder), "--env", str(tmp_path / "none.toml"), cwd=tmp_path, home=tmp_path / "home")
    assert bad_env.returncode == 2


def test_a_real_run_with_an_environment_file_writes_and_confirms_with_yes(tmp_path):
    folder = write(tmp_path / "c", {
        "collection.toml": '[vars]\ntitle = "from [vars]"\n',
        "010_add.toml": 'op = "onto.task.create"\n[args]\nproject_id = "${project_id}"\ntitle = "${title}"\n[expect.result]\n"/task/title" = "from the env"\n',
        "020_drop.toml": 'op = "onto.task.delete"\n[args]\ntask_id = "$add.result.task.id"\n[expect.diff]\ndeleted = { task = 1 }\n',
    })
    env = tmp_path / "staging.toml"
    env.write_text(f'project_id = "{PROJECT}"\ntitle = "from the env"\n')
    db = str(tmp_path / "w.db")
    refused = _opgate("--db", db, "run", str(folder), "--env", str(env), cwd=tmp_path, home=tmp_path / "home")
    assert refused.returncode == 1 and "answered PERMISSION_DENIED" in refused.stdout
    done = _opgate("--db", db, "run", str(folder), "--env", str(env), "--allow-write", "--yes", cwd=tmp_path, home=tmp_path / "home")
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed, 0 failed" in done.stdout and "run on the workspace" in done.stdout
