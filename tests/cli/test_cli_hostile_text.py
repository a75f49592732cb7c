"""The CLI shows catalogue and stored text as text (issue 15, item 9), in real subprocesses.

``opgate help`` crashed with a MarkupError traceback on a description holding
``[/]``; ``[link=...]`` was swallowed into a hyperlink; ``[Call]`` vanished.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from hostile_catalog import ARG, ENUM, MARKUP, OP, TITLE, TWILIO, write_hostile_catalog

PROJECT = "10000000-0000-4000-8000-000000000001"


def opgate(*args: str) -> subprocess.CompletedProcess:
    # Wide enough that no line wraps through the strings the tests look for.
    env = os.environ | {"COLUMNS": "2000", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "opgate", *args], capture_output=True, text=True, timeout=120, env=env)
    assert "Traceback" not in done.stderr + done.stdout, done.stderr
    return done


def test_help_shows_hostile_catalogue_text_as_it_is(tmp_path):
    catalog = str(write_hostile_catalog(tmp_path))
    group = opgate("--catalog", catalog, "help", "hostile")
    assert group.returncode == 0, group.stderr
    assert f"Summary {MARKUP}" in group.stdout
    op = opgate("--catalog", catalog, "help", OP)
    assert op.returncode == 0, op.stderr
    for text in (f"Mode {MARKUP}", TWILIO, ARG, f"Note {MARKUP}", f"Do {MARKUP}", f"Example {MARKUP}", *ENUM):
        assert text in op.stdout, text
    root = opgate("--catalog", catalog, "help")
    assert root.returncode == 0 and "hostile" in root.stdout


def test_exec_errors_echoing_hostile_values_print_as_they_are(tmp_path):
    # The hostile catalogue is browse-only (a file with nothing behind it), so the values go to a built-in op.
    done = opgate("--db", str(tmp_path / "w.db"), "exec", "onto.task.list", "state_key=[/]nope", "limit=[bold]x")
    assert done.returncode == 1
    assert '"[/]nope" is not one of' in done.stdout and '"[bold]x" is text; expected a whole number' in done.stdout


def test_a_stored_title_made_of_markup_prints_as_it_is(tmp_path):
    db = str(tmp_path / "w.db")
    made = opgate("--db", db, "exec", "onto.task.create", json.dumps({"project_id": PROJECT, "title": TITLE}), "--allow-write")
    assert made.returncode == 0, made.stdout
    assert TITLE in made.stdout
    listed = opgate("--db", db, "exec", "onto.task.list", f"project_id={PROJECT}", "limit=100")
    assert listed.returncode == 0 and TITLE in listed.stdout


def test_command_line_words_that_are_not_utf8_are_a_validation_error_naming_the_field(tmp_path):
    db = str(tmp_path / "w.db")
    word = b"title=bad \xff\xfe title"
    done = subprocess.run(
        [os.fsencode(sys.executable), b"-m", b"opgate", b"--db", os.fsencode(db), b"exec", b"onto.task.create", f"project_id={PROJECT}".encode(), word, b"--allow-write", b"--json"],
        capture_output=True, timeout=120,
    )
    assert b"Traceback" not in done.stderr, done.stderr.decode(errors="replace")
    assert done.returncode == 1
    envelope = json.loads(done.stdout)
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (envelope["error"]["code"], field_error["field"], field_error["code"]) == ("VALIDATION_ERROR", "args.title", "invalid_text")
    log = opgate("--db", db, "exec", "onto.task.list", f"project_id={PROJECT}", "--json")
    assert all("bad" not in task["title"] for task in json.loads(log.stdout)["result"]["tasks"]), "nothing was written"


def test_deeply_nested_json_arguments_and_batch_files_are_refused_cleanly(tmp_path):
    db = str(tmp_path / "w.db")
    deep = "[" * 5000 + "]" * 5000
    as_value = opgate("--db", db, "exec", "onto.project.create", "name=x", f"props={{\"a\": {deep}}}", "--json")
    assert as_value.returncode == 1 and "nested more than" in as_value.stdout
    as_object = opgate("--db", db, "exec", "onto.task.list", '{"project_id": ' + deep + "}", "--json")
    assert as_object.returncode == 1 and "nested more than" in as_object.stdout
    batch = tmp_path / "batch.json"
    batch.write_text(deep, encoding="utf-8")
    done = opgate("--db", db, "batch", str(batch))
    assert done.returncode == 2 and "nested more than" in done.stdout


def test_terminal_control_sequences_in_catalogue_text_are_shown_not_sent(tmp_path):
    """An ESC in a description reached the terminal raw: it could recolour, retitle or clear the screen of whoever ran help."""
    catalog = tmp_path / "controls.json"
    parameters = {"type": "object", "properties": {"q": {"type": "string", "description": "retitle \x1b]0;owned\x07 here"}}}
    tool = {"type": "function", "function": {"name": "paint_tool", "description": "Paints \x1b[31mRED\x1b[0m and clears \x1b[2J\x9b1m \u202edesrever", "parameters": parameters}}
    catalog.write_text(json.dumps({"tools": [tool]}))
    for path in ("controls", "controls.paint_tool"):
        done = opgate("--catalog", str(catalog), "--db", str(tmp_path / "w.db"), "help", path)
        assert done.returncode == 0, done.stderr
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout and "\x9b" not in done.stdout, repr(done.stdout)
        assert "\u202e" not in done.stdout, "a bidi override would show what follows it reversed"
        assert "RED" in done.stdout and "\\x1b[31m" in done.stdout, "the sequence is shown as text"
