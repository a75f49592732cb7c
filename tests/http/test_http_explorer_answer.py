"""After an HTTP op runs, the explorer lists the ids of the upstream's answer as ids to copy, not as store
entities to open: no get op of ours opens an id that a remote API made up."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from loopback_server import Answer
from opgate.tui import make_app
from opgate.tui.widgets import EntityLinks, ResultView
from textual.widgets import Label

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tui"))
from pilot_helpers import settle, wait_until

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_an_http_answers_ids_are_listed_to_copy_not_as_entities(loopback, loopback_gateway):
    loopback.script("GET", "/items", Answer(200, [{"id": 41, "name": "bolt"}, {"id": 42, "name": "nut"}]))
    app = make_app(loopback_gateway(), "opgate.toml")
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("items.item.list", {"limit": 5})
        await settle(pilot)
        await pilot.press("f6")
        await wait_until(pilot, lambda: (screen.query_one(ResultView).envelope or {}).get("ok"), timeout=15)
        await settle(pilot)
        heading = str(screen.query_one("#entities-heading", Label).render())
        assert "Entities touched" not in heading and heading == "Ids in the answer (Enter copies one)"
        links = screen.query_one(EntityLinks)
        assert [links.get_option_at_index(i).id for i in range(links.option_count)] == ["41", "42"]
        links.focus()
        await settle(pilot)
        await pilot.press("down", "enter")
        await settle(pilot)
        await wait_until(pilot, lambda: any("an id from the answer" in n.title for n in app._notifications))
        note = next(n for n in app._notifications if "an id from the answer" in n.title)
        assert note.message.endswith("\n42"), note.message
        assert not any("No get op opens" in n.message for n in app._notifications)
