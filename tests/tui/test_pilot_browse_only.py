"""Ops that nothing can run here: the explorer says so, and F5/F6 are off instead of answering INTERNAL."""

from __future__ import annotations

from pathlib import Path

import pytest
from pilot_helpers import settle

from opgate.core import Gateway
from opgate.tui import make_app
from opgate.tui.screens import ExplorerScreen
from opgate.tui.widgets import ResultView

pytestmark = pytest.mark.anyio
GITHUB = Path(__file__).resolve().parents[3] / "shared" / "data" / "catalogs" / "github_mcp_tools_list.json"


@pytest.fixture
def github_gateway(tmp_path):
    gw = Gateway.from_catalogs([f"github={GITHUB}"], db_path=tmp_path / "w.db")
    yield gw
    gw.close()


async def test_browse_only_op_disables_run_keys_and_says_why(github_gateway):
    app = make_app(github_gateway, "github")
    messages = []
    async with app.run_test(size=(120, 36), message_hook=messages.append) as pilot:
        await settle(pilot)
        record = github_gateway.registry.resolve("list_issues")
        screen = app.screen
        await screen.open_op(record.op, {"owner": "octo", "repo": "hello"})
        await settle(pilot)
        assert screen.check_action("dry_run", ()) is None and screen.check_action("run", ()) is None
        title = str(screen.query_one("#builder-title").render())
        assert "browse-only" in title and "Browse only" in title
        await pilot.press("f5")
        await pilot.press("f6")
        await settle(pilot)
        assert not [m for m in messages if isinstance(m, ExplorerScreen.CallDone)], "nothing was run"
        assert screen.query_one(ResultView).envelope is None or screen.query_one(ResultView).envelope.get("error", {}).get("code") != "INTERNAL"


async def test_a_runnable_op_keeps_its_run_keys(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        await app.screen.open_op("onto.task.list", {})
        await settle(pilot)
        assert app.screen.check_action("dry_run", ()) is True


async def test_at_80x24_the_status_line_says_why_f5_and_f6_are_off(github_gateway):
    """The title's reason is cut at two lines there; the status line said 'still needed', as if filling the form would run it."""
    app = make_app(github_gateway, "github")
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        record = github_gateway.registry.resolve("create_pull_request")
        await app.screen.open_op(record.op, {})
        await settle(pilot, delay=0.5)
        check = app.screen.query_one("#builder-check")
        shown = "\n".join(strip.text for strip in check.render_lines(check.size.region))
        assert shown.lstrip().startswith("browse only, F5 and F6 are off"), shown
