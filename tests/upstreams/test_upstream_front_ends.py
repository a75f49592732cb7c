"""The upstream flow from the REPL (prompt_toolkit pipe input) and the explorer (a Textual pilot), against the real servers."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams
from opgate.tui import make_app
from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen, ElicitScreen, ExplorerScreen
from opgate.tui.widgets import ResultView

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "repl"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from pilot_helpers import settle, wait_until  # noqa: E402
from repl_driver import ENTER, ReplDriver, wait_for  # noqa: E402

ADA = {"entities": [{"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}]}


def gateway(config, db, **options) -> Gateway:
    return Gateway(db_path=db, upstreams=Upstreams.from_files([config]), **options)


def names(gw: Gateway) -> list[str]:
    envelope = gw.exec("memory.graph.read", {})
    assert envelope["ok"], envelope
    return sorted(e["name"] for e in envelope["result"]["entities"])


def test_the_flow_from_the_repl(config, db, tmp_path):
    gw = gateway(config, db)
    try:
        with ReplDriver(gw, tmp_path / "history") as repl:
            repl.wait_for_prompt()
            repl.type("help memory.entity.create")
            repl.enter_and_wait_for("create_entities")
            repl.wait_for_prompt()
            repl.type("exec read_graph")
            repl.enter_and_wait_for('"entities": []')
            repl.wait_for_prompt()
            write = f"exec memory.entity.create {json.dumps(ADA)}"
            repl.type(write)
            repl.enter_and_wait_for("PERMISSION_DENIED")
            repl.wait_for_prompt()
            repl.type(f"dry memory.entity.create {json.dumps(ADA)}")
            repl.enter_and_wait_for("preview: nothing was sent")
            repl.wait_for_prompt()
            assert names(gw) == [], "the dry-run sent the write"
            repl.type("set writes on")
            repl.enter_and_wait_for("writes on")
            repl.wait_for_prompt()
            repl.type(write)
            repl.press(ENTER)
            wait_for(lambda: names(gw) == ["Ada"], "the write to reach the memory server")
            repl.wait_for_prompt()
            # The upstream asks a question mid-call: the REPL puts it to the person, field by field.
            repl.type("exec everything.elicitation_request.trigger")
            repl.press(ENTER)
            wait_for(lambda: "asks, while running" in repl.output, "the upstream's question")
            # The name (required), then Enter through the twelve optional fields (typed ahead, as a person might).
            repl.press("Ada Lovelace" + ENTER + ENTER * 12)
            wait_for(lambda: "Ada Lovelace" in repl.output.rsplit("asks, while running", 1)[1], "the answer in the result", timeout=20)
            repl.wait_for_prompt()
            assert repl.quit() == 0
    finally:
        gw.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_flow_from_the_explorer(config, db):
    gw = gateway(config, db)
    app = make_app(gw, "upstreams")
    messages = []
    try:
        async with app.run_test(size=(140, 40), message_hook=messages.append) as pilot:
            await settle(pilot)
            screen = app.screen
            # A read, through the op's own form.
            await screen.open_op("memory.graph.read", {})
            await settle(pilot)
            await pilot.press("f6")
            await wait_until(pilot, lambda: [m for m in messages if isinstance(m, ExplorerScreen.CallDone)])
            assert screen.query_one(ResultView).envelope["result"] == {"entities": [], "relations": []}
            # F5 on a write previews it: nothing is sent.
            await screen.open_op("memory.entity.create", ADA)
            await settle(pilot)
            await pilot.press("f5")
            await wait_until(pilot, lambda: (screen.query_one(ResultView).envelope or {}).get("meta", {}).get("dry_run_kind") == "preview")
            assert names(gw) == []
            await settle(pilot)
            request = str(screen.query_one("#result-http").render())
            assert screen.query_one("#http-heading").display and str(screen.query_one("#http-heading").render()) == "Request (not sent)"
            assert "tools/call" in request and "create_entities" in request, "the result shows what F6 would send, as the confirmation does"
            # F6: writes are off, so the explorer asks to turn them on, then shows what will be sent.
            await pilot.press("f6")
            await wait_until(pilot, lambda: isinstance(app.screen, AllowWriteScreen))
            await pilot.press("w")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))
            assert app.screen.query("#confirm-preview"), "the confirmation shows the request, not a diff"
            await pilot.press("y")
            await wait_until(pilot, lambda: (screen.query_one(ResultView).envelope or {}).get("ok") and not screen.query_one(ResultView).envelope["meta"].get("dry_run"))
            assert names(gw) == ["Ada"]
            # The upstream's question opens the elicitation modal.
            await screen.open_op("everything.elicitation_request.trigger", {})
            await settle(pilot)
            await pilot.press("f6")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))  # a write: what will be sent, first
            await pilot.press("y")
            await wait_until(pilot, lambda: isinstance(app.screen, ElicitScreen), timeout=15)
            app.screen.query_one("#elicit-name").value = "Ada Lovelace"
            await pilot.click("#elicit-send")
            await wait_until(pilot, lambda: "Ada Lovelace" in json.dumps((screen.query_one(ResultView).envelope or {}).get("result")), timeout=15)
    finally:
        gw.close()


@pytest.mark.anyio
async def test_a_form_that_starts_as_an_empty_list_focuses_its_add_button(config, db):
    """memory.entity.create is one required list of objects: opening it left the focus in the tree."""
    from textual.widgets import Button

    gw = gateway(config, db)
    app = make_app(gw, "upstreams")
    try:
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot)
            await app.screen.open_op("memory.entity.create")
            await settle(pilot)
            assert isinstance(app.focused, Button) and "add" in app.focused.classes, app.focused
            await pilot.press("enter")
            await settle(pilot)
            await pilot.press(*"Ada")
            await settle(pilot)
            assert app.screen.call_args["entities"][0]["name"] == "Ada", "Enter added an item and focused its first field"
    finally:
        gw.close()
