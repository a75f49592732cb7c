"""The newcomer's path, keys only: find onto.document.tree.move, fill it from the demo workspace,
dry-run it and see the diff, run it, and find it in history."""

from __future__ import annotations

import pytest
from pilot_helpers import API_SPEC, ENGINEERING, PROJECT, parent_of, settle, type_text

from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen, ExplorerScreen, HistoryScreen, IdPickerScreen, JumpScreen
from opgate.tui.widgets import CallBuilder, DiffView, ResultView

pytestmark = pytest.mark.anyio


async def pick(pilot, name_typed: str) -> None:
    await pilot.press("f7")
    await settle(pilot)
    assert isinstance(pilot.app.screen, IdPickerScreen)
    await type_text(pilot, name_typed)
    await settle(pilot)
    await pilot.press("enter")
    await settle(pilot)


async def test_newcomer_finds_fills_dry_runs_runs_and_finds_it_again(app, gateway):
    async with app.run_test(size=(80, 24)) as pilot:
        explorer = app.screen
        # 1. find it
        await pilot.press("slash")
        assert isinstance(app.screen, JumpScreen)
        await type_text(pilot, "move document")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        builder = explorer.query_one(CallBuilder)
        assert builder.record.op == "onto.document.tree.move"
        # 2. fill it from the demo workspace: the focus is in project_id
        await pick(pilot, "relay")
        await pilot.press("tab")
        await pick(pilot, "api spec")
        await pilot.press("tab")
        await pick(pilot, "engineering")
        assert builder.args == {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}
        assert builder.field_errors == []
        # 3. dry-run it and see the diff
        await pilot.press("f5")
        await settle(pilot)
        assert explorer.query_one("#tabs").active == "result"
        diff = explorer.query_one(DiffView).diff
        assert diff["updated"][0]["fields"]["parent_id"]["after"] == ENGINEERING
        assert parent_of(gateway, API_SPEC) is None
        # 4. run it: writes are off, so it offers to switch them on, then shows what will change
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, AllowWriteScreen)
        await pilot.press("w")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmRunScreen)
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)
        assert explorer.query_one(ResultView).envelope["ok"]
        assert parent_of(gateway, API_SPEC) == ENGINEERING
        # 5. find it in history
        await pilot.press("ctrl+r")
        await settle(pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        table = history.query_one("DataTable")
        rows = [[str(cell) for cell in table.get_row_at(i)] for i in range(table.row_count)]
        assert [rows[0][2], *rows[0][4:6]] == ["onto.document.tree.move", "run", "ok"]
        assert [rows[1][2], *rows[1][4:6]] == ["onto.document.tree.move", "dry-run", "ok"]
        assert 'document_id="API Spec" 5000…0002' in rows[0][3] and rows[0][7] == "this"
