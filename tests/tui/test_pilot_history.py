"""History: this session's and earlier sessions' calls, re-opened into the builder, collected into a batch."""

from __future__ import annotations

import io

import pytest
from pilot_helpers import API_SPEC, ENGINEERING, PROJECT, parent_of, settle, type_text, wait_until

from rich.console import Console

from opgate.core import Gateway
from opgate.tui import make_app
from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen, ExplorerScreen, HistoryScreen
from opgate.tui.widgets import BatchPanel, CallBuilder, FormField

pytestmark = pytest.mark.anyio
MOVE = {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}


async def test_history_shows_earlier_sessions_and_this_one(tmp_path, closed_after):
    earlier = Gateway(db_path=tmp_path / "w.db")
    earlier.exec("onto.project.list", {})
    earlier.close()
    gateway = closed_after(Gateway(db_path=tmp_path / "w.db"))
    app = make_app(gateway)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.screen.open_op("onto.task.list", {"project_id": PROJECT})
        await pilot.press("f6")
        await settle(pilot)
        await pilot.press("ctrl+r")
        await settle(pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        rows = [[str(cell) for cell in history.query_one("DataTable").get_row_at(i)] for i in range(len(history.entries))]
        assert [(r[2], r[7]) for r in rows[:2]] == [("onto.task.list", "this"), ("onto.project.list", "older")]


async def test_a_call_reopens_in_the_builder(app, gateway):
    gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)
        builder = app.screen.query_one(CallBuilder)
        assert builder.record.op == "onto.document.tree.move" and builder.args == MOVE
        assert app.screen.query_one("#tabs").active == "build"


async def test_calls_collected_into_a_batch_run_together(app, gateway):
    gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    gateway.exec("onto.project.get", {"project_id": PROJECT})
    messages = []
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        history = app.screen
        await pilot.press("space")  # the project.get (newest)
        await pilot.press("down", "space")  # the move
        panel = history.query_one(BatchPanel)
        assert [s["op"] for s in panel.steps] == ["onto.project.get", "onto.document.tree.move"]
        await pilot.press("ctrl+d")
        await settle(pilot)
        done = [m for m in messages if isinstance(m, HistoryScreen.BatchDone)][-1]
        assert [r["ok"] for r in done.results] == [True, True] and done.results[1]["meta"]["dry_run"]
        assert parent_of(gateway, API_SPEC) is None
        await pilot.press("ctrl+b")
        await settle(pilot)
        assert isinstance(app.screen, AllowWriteScreen)
        await pilot.press("w")
        await settle(pilot)
        # A real batch with a write is previewed first: the person sees the diff and says yes.
        assert isinstance(app.screen, ConfirmRunScreen)
        assert parent_of(gateway, API_SPEC) is None
        await pilot.press("y")
        await settle(pilot)
        done = [m for m in messages if isinstance(m, HistoryScreen.BatchDone)][-1]
        assert not done.preview
        assert [r["ok"] for r in done.results] == [True, True] and not done.results[1]["meta"].get("dry_run")
        assert parent_of(gateway, API_SPEC) == ENGINEERING
        assert all(r["meta"]["trace_id"] in app.session_traces for r in done.results)
        await pilot.press("ctrl+x")
        assert panel.steps == []


async def test_at_80x24_every_column_that_matters_is_on_screen(app, gateway):
    """The outcome was off the right edge at 80 columns: the arguments now give way, and the op keeps its end."""
    gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    gateway.exec("onto.task.create", {"project_id": PROJECT})  # fails: no title
    gateway.exec("onto.project.get", {"project_id": PROJECT})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("ctrl+r")
        await wait_until(pilot, lambda: isinstance(app.screen, HistoryScreen) and len(app.screen.entries) == 3)
        await settle(pilot)
        table = app.screen.query_one("DataTable")
        assert table.virtual_size.width <= table.size.width and table.max_scroll_x == 0, "nothing is off the right edge"
        drawn = [table.render_line(y).text for y in range(4)]
        header = drawn[0].split()
        assert header == ["when", "(UTC)", "op", "mode", "outcome", "ms", "session"], "the arguments gave way"
        newest, failed, moved = drawn[1:]
        assert " ok " in newest and "VALIDATION_ERROR" in failed and " ok " in moved and "dry-run" in moved, drawn
        assert "…task.create" in failed and "…tree.move" in moved and "onto.document.tree.move" not in moved, drawn
        assert all(line.split()[1].count(":") == 2 for line in drawn[1:]), "the time is whole"
        # What is drawn is cut; the cells keep the whole text.
        assert str(table.get_row_at(2)[2]) == "onto.document.tree.move"
        assert 'document_id="API Spec" 5000…0002' in str(table.get_row_at(2)[3])  # the id's name first

        await pilot.resize_terminal(140, 30)
        await settle(pilot, delay=0.2)
        drawn = [table.render_line(y).text for y in range(4)]
        assert "onto.document.tree.move" in drawn[3] and 'document_id="API Spec" 5000…0002' in drawn[3], drawn


def field_heads(builder) -> dict[str, str]:
    """Each mounted field's head line as drawn, by argument name."""
    return {str(f.slot.path[-1]): str(f.query_one(".field-head").render()) for f in builder.query(FormField)}


async def test_a_call_reopened_from_an_earlier_session_names_its_ids(tmp_path, closed_after):
    """The log keeps bare ids: the re-opened form shows each entity's name beside its id, as a pick would."""
    earlier = Gateway(db_path=tmp_path / "w.db")
    earlier.exec("onto.document.tree.move", MOVE, dry_run=True)
    earlier.close()
    gateway = closed_after(Gateway(db_path=tmp_path / "w.db"))
    app = make_app(gateway)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        heads = field_heads(app.screen.query_one(CallBuilder))
        assert "= Relay 2.0 Launch" in heads["project_id"]
        assert "= API Spec" in heads["document_id"] and "= Engineering" in heads["new_parent_id"]


async def test_the_history_rows_and_filter_know_the_names_of_the_ids(app, gateway):
    gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    gateway.exec("onto.project.list", {})
    async with app.run_test(size=(160, 40)) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        history = app.screen
        row = [str(cell) for cell in history.query_one("DataTable").get_row_at(1)]
        assert 'document_id="API Spec" 5000…0002' in row[3]
        await pilot.press("slash")
        await type_text(pilot, "engineering")
        await settle(pilot)
        assert [e["op"] for e in history.entries] == ["onto.document.tree.move"]


async def test_a_typed_id_is_named_and_a_changed_one_loses_the_name(app):
    async with app.run_test(size=(120, 40)) as pilot:
        await app.screen.open_op("onto.document.tree.move", {})
        await settle(pilot)
        builder = app.screen.query_one(CallBuilder)
        builder.focus_first_field()
        await type_text(pilot, PROJECT)
        await settle(pilot, delay=0.4)
        assert "= Relay 2.0 Launch" in field_heads(builder)["project_id"]
        await pilot.press("backspace")
        await settle(pilot, delay=0.4)
        assert "=" not in field_heads(builder)["project_id"].split("—")[0]


async def test_the_batch_names_the_ids_of_its_calls(app, gateway):
    gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        await pilot.press("space")
        await settle(pilot)
        panel = app.screen.query_one(BatchPanel)
        console = Console(width=120, file=io.StringIO(), record=True)
        console.print(panel.render())
        shown = console.export_text()
        assert 'document_id="API Spec" 5000…0002' in shown, shown
