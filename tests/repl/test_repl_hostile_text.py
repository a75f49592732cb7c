"""The REPL shows catalogue and stored text as text (issue 15, item 9): ``opgate repl < script`` in real subprocesses."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hostile_catalog import ARG, ENUM, MARKUP, OP, TITLE, TWILIO, write_hostile_catalog

RELAY = "10000000-0000-4000-8000-000000000001"


def run(tmp_path: Path, script: str, *options: str) -> subprocess.CompletedProcess:
    path = tmp_path / "script.txt"
    path.write_text(script, encoding="utf-8")
    env = os.environ | {"COLUMNS": "2000", "NO_COLOR": "1"}
    with path.open(encoding="utf-8") as stdin:
        done = subprocess.run(
            [sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), *options, "repl"],
            stdin=stdin, capture_output=True, text=True, timeout=120, env=env,
        )
    assert "Traceback" not in done.stdout + done.stderr, done.stdout + done.stderr
    return done


def test_listing_help_and_search_show_hostile_catalogue_text(tmp_path):
    catalog = str(write_hostile_catalog(tmp_path))
    done = run(tmp_path, f"ls\ncd hostile\nls\nhelp {OP}\nsearch hostile summary\nexec {OP} {ARG}=nope\n", "--catalog", catalog)
    out = done.stdout
    assert f"Summary {MARKUP}" in out, out
    for text in (f"Mode {MARKUP}", TWILIO, ARG, f"Do {MARKUP}", f"Example {MARKUP}", *ENUM):
        assert text in out, text
    # The catalogue is a file with nothing behind it: exec says so (the CLI test covers values echoed in errors).
    assert f"{OP} cannot run in this gateway" in out


def test_a_stored_title_made_of_markup_shows_in_tables_as_it_is(tmp_path):
    title = TITLE.replace("'", "")
    script = f"set writes on\nexec onto.task.create project_id={RELAY} title='{title}'\nset format table\nexec onto.task.list project_id={RELAY} limit=100\n"
    done = run(tmp_path, script)
    assert done.returncode == 0, done.stdout
    # Table cells are cut at 48 characters: the start of the title is there, brackets and all.
    assert title[:40] in done.stdout.split("onto.task.list", 1)[1]
