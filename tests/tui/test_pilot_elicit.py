"""An upstream's question (MCP elicitation) reaches the person as a modal form; Escape declines."""

from __future__ import annotations

import threading

import pytest
from pilot_helpers import settle, wait_until

from opgate.core.exec import Question
from opgate.tui.screens import ElicitScreen

pytestmark = pytest.mark.anyio
QUESTION = Question(
    op="everything.elicitation.start", upstream="everything",
    message="Which [bold]colour[/bold] and how many?",
    schema={"type": "object", "properties": {
        "colour": {"type": "string", "enum": ["red", "green"], "title": "Colour"},
        "count": {"type": "integer", "minimum": 1, "title": "Count"},
        "urgent": {"type": "boolean", "title": "Urgent"},
    }, "required": ["count"]},
)


def ask_in_thread(gateway):
    box = {}
    thread = threading.Thread(target=lambda: box.setdefault("answer", gateway.asker(QUESTION)), daemon=True)
    thread.start()
    return thread, box


async def test_the_person_answers_and_the_answer_is_typed_and_checked(app, gateway):
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        thread, box = ask_in_thread(gateway)
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitScreen))
        # The upstream's text is shown as it is, not as markup.
        assert "[bold]colour[/bold]" in str(app.screen.query("Label")[1].render())
        app.screen.query_one("#elicit-count").value = "0"
        await pilot.click("#elicit-send")
        await settle(pilot)
        assert isinstance(app.screen, ElicitScreen), "an answer below the minimum is refused"
        app.screen.query_one("#elicit-count").value = "3"
        app.screen.query_one("#elicit-urgent").value = True
        await pilot.click("#elicit-send")
        await settle(pilot)
        thread.join(5)
        assert box["answer"] == {"count": 3, "urgent": True}


async def test_escape_declines(app, gateway):
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot)
        thread, box = ask_in_thread(gateway)
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitScreen))
        await pilot.press("escape")
        await settle(pilot)
        thread.join(5)
        assert "answer" in box and box["answer"] is None
