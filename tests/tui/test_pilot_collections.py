"""Collections in the explorer: save the call being built or a history row, browse, dry-run and run; history filters and cancellations."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from pilot_helpers import PROJECT, settle, type_text, wait_until

from opgate.core import Gateway
from opgate.core.collection import load_collection
from opgate.tui import make_app
from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen, ExplorerScreen, HistoryScreen, RunReportScreen, SaveCallScreen
from opgate.tui.widgets import CallBuilder, CollectionBrowser, OpTree

pytestmark = pytest.mark.anyio
DEMO = Path(__file__).resolve().parents[2] / "fixtures" / "collections" / "demo"
FIRST_TASK = "20000000-0000-4000-8000-000000000001"


def _tasks(db: Path) -> int:
    reader = Gateway(db_path=db, call_log=False)
    try:
        return reader.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"]
    finally:
        reader.close()


async def _save_as(pilot, collection: str) -> None:
    assert isinstance(pilot.app.screen, SaveCallScreen)
    box = pilot.app.screen.query_one("#save-collection")
    box.value = ""
    await type_text(pilot, collection)
    await pilot.press("ctrl+s")
    await settle(pilot)


async def test_ctrl_s_saves_the_call_with_what_it_last_answered(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    app = make_app(gateway, collections_dir=tmp_path / "collections")
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.task.create", {"project_id": PROJECT, "title": "Saved from the builder"})
        await settle(pilot)
        await pilot.press("f5")  # a dry-run: its diff becomes the expectation
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        assert "created 1 task" in str(app.screen.query_one("#save-expect").label)
        await _save_as(pilot, "smoke")
        assert isinstance(app.screen, ExplorerScreen)
    gateway.close()
    collection = load_collection(tmp_path / "collections" / "smoke")
    (call,) = collection.calls
    assert call.op == "onto.task.create" and call.args["title"] == "Saved from the builder"
    assert call.expect.diff["created"] == {"task": 1}


async def test_ctrl_o_browses_collections_and_enter_opens_a_saved_call(tmp_path):
    shutil.copytree(DEMO, tmp_path / "collections" / "tour")
    gateway = Gateway(db_path=tmp_path / "w.db")
    app = make_app(gateway, collections_dir=tmp_path / "collections")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("ctrl+o")
        await settle(pilot)
        screen = app.screen
        browser = screen.query_one(CollectionBrowser)
        assert browser.display and not screen.query_one(OpTree).display and browser.has_focus
        names = [c.name for c in browser.listing.collections]
        assert names[0] == "demo" and "demo" in names  # the folder's collection.toml names it; the shipped one is listed after
        await pilot.press("down", "down", "enter")  # the first collection's second call: get_project
        await settle(pilot)
        builder = screen.query_one(CallBuilder)
        assert builder.record.op == "onto.project.get" and builder.args == {"project_id": "${project_id}"}
    gateway.close()


async def test_f5_on_a_collection_dry_runs_all_of_it_and_writes_nothing(tmp_path):
    db = tmp_path / "w.db"
    gateway = Gateway(db_path=db)
    before = _tasks(db)
    app = make_app(gateway, collections_dir=tmp_path / "none")
    messages: list = []
    async with app.run_test(size=(120, 36), message_hook=messages.append) as pilot:
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press("f5")  # the cursor is on the shipped demo collection
        await settle(pilot)
        assert isinstance(app.screen, RunReportScreen)
        report = app.screen.report
        assert report.mode == "dry-run" and report.passed and len(report.calls) == 7
        await pilot.press("down", "down", "enter")  # a row of the first call: its envelope in Result
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen) and app.screen.query_one("#tabs").active == "result"
    gateway.close()
    assert _tasks(db) == before


async def test_f6_on_a_collection_asks_for_writes_shows_the_diff_then_runs_for_real(tmp_path):
    folder = tmp_path / "collections" / "real"
    folder.mkdir(parents=True)
    (folder / "010_add.toml").write_text(f'op = "onto.task.create"\n[args]\nproject_id = "{PROJECT}"\ntitle = "Kept"\n[expect.diff]\ncreated = {{ task = 1 }}\n')
    (folder / "020_drop.toml").write_text(f'op = "onto.task.delete"\n[args]\ntask_id = "{FIRST_TASK}"\n')
    db = tmp_path / "w.db"
    gateway = Gateway(db_path=db)
    before = _tasks(db)
    app = make_app(gateway, collections_dir=tmp_path / "collections")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, AllowWriteScreen)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmRunScreen) and "2 calls of real" in app.screen.summary
        assert _tasks(db) == before  # the preview ran on a scratch copy
        await pilot.press("y")
        # The delete needs its own confirmation, asked by the gateway during the real run.
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen) and app.screen.op == "onto.task.delete")
        await pilot.press("y")
        await wait_until(pilot, lambda: isinstance(app.screen, RunReportScreen))
        assert app.screen.report.mode == "run" and app.screen.report.passed
    gateway.close()
    assert _tasks(db) == before  # one task added, one deleted


async def test_history_filters_saves_a_row_and_shows_a_cancel_as_a_cancel(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 2})
    gateway.exec("onto.task.create", {"title": 3}, dry_run=True)  # refused by validation: still a dry-run
    app = make_app(gateway, collections_dir=tmp_path / "collections")
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.task.delete", {"task_id": FIRST_TASK})
        await settle(pilot)
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))
        await pilot.press("n")
        await settle(pilot)
        assert not any(n.severity == "error" for n in app._notifications)
        await pilot.press("ctrl+r")
        await settle(pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        table = history.query_one("DataTable")
        cells = [str(c) for c in table.get_row_at(0)]
        assert cells[2] == "onto.task.delete" and cells[5] == "cancelled, nothing written" and 'task_id="Finalize public API…" 2000…0001' in cells[3]
        await pilot.press("slash")
        await type_text(pilot, "is:failed is:dry-run")
        await settle(pilot)
        assert [e["op"] for e in history.entries] == ["onto.task.create"]
        history.query_one("#history-filter").value = "limit=2"
        await settle(pilot)
        assert [e["op"] for e in history.entries] == ["onto.task.list"]
        history.query_one("DataTable").focus()
        await pilot.press("ctrl+s")
        await settle(pilot)
        await _save_as(pilot, "from-history")
    gateway.close()
    (call,) = load_collection(tmp_path / "collections" / "from-history").calls
    assert call.op == "onto.task.list" and call.args == {"limit": 2, "project_id": PROJECT}


async def test_a_call_that_needs_earlier_answers_dry_runs_with_them_and_will_not_run_alone(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    app = make_app(gateway, collections_dir=tmp_path / "none")
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press(*["down"] * 4)  # the demo's 040_start_task, which updates the task 030 creates
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)  # refused, with a notice
        await pilot.press("f5")
        await wait_until(pilot, lambda: isinstance(app.screen, RunReportScreen))
        report = app.screen.report
        assert [c.call.name for c in report.calls] == ["list_projects", "get_project", "create_task", "start_task"] and report.passed
    gateway.close()


async def test_done_when_five_calls_built_in_the_explorer_pass_as_a_dry_run_from_the_cli(tmp_path):
    """The issue's check: a QA engineer saves 5 calls in the explorer, then CI dry-runs them with a JUnit report."""
    import os
    import subprocess
    import sys
    import xml.etree.ElementTree as ET

    db = tmp_path / "w.db"
    gateway = Gateway(db_path=db)
    app = make_app(gateway, collections_dir=tmp_path / "collections")
    calls = [
        ("onto.project.list", {}, False),
        ("onto.project.get", {"project_id": PROJECT}, False),
        ("onto.task.list", {"project_id": PROJECT, "limit": 3}, False),
        ("onto.task.create", {"project_id": PROJECT, "title": "QA check"}, True),
        ("onto.task.update", {"task_id": FIRST_TASK, "priority": 2}, True),
    ]
    async with app.run_test(size=(120, 36)) as pilot:
        for op, args, dry_run_first in calls:
            await app.screen.open_op(op, args)
            await settle(pilot)
            if dry_run_first:
                await pilot.press("f5")  # its diff becomes the expectation
                await settle(pilot)
            await pilot.press("ctrl+s")
            await settle(pilot)
            await _save_as(pilot, "qa")
    gateway.close()
    folder = tmp_path / "collections" / "qa"
    assert len(load_collection(folder).calls) == 5
    env = {**os.environ, "OPGATE_HOME": str(tmp_path / "home"), "XDG_DATA_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "run", str(folder), "--dry-run", "--junit", str(tmp_path / "r.xml")],
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    suite = ET.parse(tmp_path / "r.xml").getroot().find("testsuite")
    assert suite.get("tests") == "5" and suite.get("failures") == "0"
    assert "diff updated: 1 task" in "".join(case.findtext("system-out") for case in suite.findall("testcase"))


async def test_a_collection_of_one_call_says_one_call(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    app = make_app(gateway, collections_dir=tmp_path / "collections")
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.task.list", {"project_id": PROJECT})
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        await pilot.press("ctrl+s")
        await settle(pilot)
        await _save_as(pilot, "smoke")
        await pilot.press("ctrl+o")
        await settle(pilot)
        labels = [str(node.label) for node in app.screen.query_one(CollectionBrowser).root.children]
    gateway.close()
    assert "smoke  1 call" in labels, labels
