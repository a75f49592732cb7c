"""docs/authoring.md: its worked example builds and runs as written, and its error table is the code's."""

from __future__ import annotations

import json
import re

from tool_folders import REPO, opgate

from opgate.core import Gateway
from opgate.core.executors.python import ERROR_TYPES

DOC = REPO / "docs" / "authoring.md"
# A fenced block whose info string names the file it is: ```json schema.json ... ``` (or four backticks).
EXAMPLE_BLOCK = re.compile(r"^(`{3,4})\w+ (schema\.json|guide\.md|handler\.py)\n(.*?)^\1$", re.MULTILINE | re.DOTALL)


def _worked_example(root):
    files = {name: text for _, name, text in EXAMPLE_BLOCK.findall(DOC.read_text())}
    assert set(files) == {"schema.json", "guide.md", "handler.py"}, sorted(files)
    folder = root / "notes-append"
    folder.mkdir(parents=True)
    for name, text in files.items():
        (folder / name).write_text(text)
    return folder


def test_the_worked_example_builds_and_runs(tmp_path):
    tools = tmp_path / "tools"
    _worked_example(tools)
    built = opgate("build", str(tools), "--out", str(tmp_path / "registry.json"), "--run-examples")
    assert built.returncode == 0, built.stdout + built.stderr
    assert "1 example(s) ran, 0 failed" in built.stdout
    notes = tmp_path / "notes" / "notes.txt"
    notes.parent.mkdir()
    gateway = Gateway.from_catalogs([tmp_path / "registry.json"], db_path=tmp_path / "w.db", allow_write=True)
    try:
        rehearsal = gateway.exec("notes_append", {"file": str(notes), "line": "buy milk"}, dry_run=True)
        assert rehearsal["ok"] and rehearsal["meta"]["dry_run_kind"] == "native"
        assert rehearsal["result"]["would_append"] == "buy milk" and not notes.exists()
        assert gateway.exec("notes_append", {"file": str(notes), "line": "buy milk"})["ok"]
        assert notes.read_text() == "buy milk\n"
        missing = gateway.exec("notes_append", {"file": str(tmp_path / "nowhere" / "n.txt"), "line": "x"})["error"]
        assert missing["code"] == "NOT_FOUND" and missing["details"]["type"] == "NOT_FOUND"
        assert missing["details"]["field_errors"][0]["field"] == "args.file"
        two_lines = gateway.exec("notes_append", {"file": str(notes), "line": "a\nb"})["error"]
        assert two_lines["code"] == "VALIDATION_ERROR" and two_lines["details"]["type"] == "VALIDATION"
    finally:
        gateway.close()
    # The same example from the command line, as the page shows it.
    cli = opgate("--catalog", str(tools), "--db", str(tmp_path / "w.db"), "exec", "notes_append", f"file={notes}", "line=again", "--allow-write", "--json")
    assert json.loads(cli.stdout)["ok"], cli.stdout + cli.stderr
    assert notes.read_text() == "buy milk\nagain\n"


def test_the_error_table_on_the_page_is_the_codes_table():
    rows = re.findall(r"^\| `([A-Z_]+)` \| `([A-Z_]+)` \| (yes|no) \|$", DOC.read_text(), re.MULTILINE)
    assert {kind: (code, retry == "yes") for kind, code, retry in rows} == ERROR_TYPES
