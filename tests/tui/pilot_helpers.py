"""Explorer test helpers (constants and pilot conveniences), imported by the tests of this folder."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console

from opgate.core import Gateway

PROJECT = "10000000-0000-4000-8000-000000000001"  # Relay 2.0 Launch
API_SPEC = "50000000-0000-4000-8000-000000000002"
ENGINEERING = "50000000-0000-4000-8000-000000000001"
CATALOGS = Path(__file__).resolve().parents[3] / "shared" / "data" / "catalogs"
TWILIO = CATALOGS / "twilio_openapi_tools.json"
GITHUB = CATALOGS / "github_mcp_tools_list.json"


async def settle(pilot, delay: float = 0.05, timeout: float = 10.0) -> None:
    """Let every worker finish (cancelled ones included) and the messages they posted be handled."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for _ in range(3):
        while any(not w.is_finished for w in pilot.app.workers):
            if loop.time() > deadline:
                raise AssertionError(f"workers still running: {list(pilot.app.workers)}")
            await pilot.pause(0.01)
        await pilot.pause(delay)


async def wait_until(pilot, condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Pause until ``condition()`` holds (for screens a blocked worker is waiting on)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise AssertionError("timed out waiting for the explorer")
        await pilot.pause(0.02)


async def type_text(pilot, text: str) -> None:
    for char in text:
        await pilot.press("space" if char == " " else char)


def parent_of(gateway: Gateway, document_id: str) -> str | None:
    """The document's parent, read from the store by a second gateway that leaves no call in the log."""
    reader = Gateway(db_path=gateway.db_location, call_log=False)
    try:
        envelope = reader.exec("onto.document.get", {"document_id": document_id})
    finally:
        reader.close()
    return envelope["result"]["document"]["parent_id"]


def screen_text(app) -> str:
    """The characters of the frame the app would draw now, as the compositor lays them out."""
    console = Console(width=app.size.width, file=io.StringIO(), record=True, color_system=None, legacy_windows=False)
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    return console.export_text()
