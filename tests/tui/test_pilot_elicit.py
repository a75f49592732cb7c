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


async def test_a_long_question_keeps_send_and_decline_on_screen_at_80x24(app, gateway):
    """The fields scroll; the buttons stay whole inside the box (everything's elicitation asks for seven fields)."""
    many = Question(op=QUESTION.op, upstream=QUESTION.upstream, message="Please provide inputs for the following fields:", schema={
        "type": "object", "properties": {f"field{i}": {"type": "string", "title": f"Field {i}", "description": "Some words about it"} for i in range(7)},
    })
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        thread = threading.Thread(target=lambda: gateway.asker(many), daemon=True)
        thread.start()
        await wait_until(pilot, lambda: isinstance(app.screen, ElicitScreen))
        await pilot.pause(0.3)
        box = app.screen.query_one("#elicit-box").region
        for button in ("#elicit-send", "#elicit-decline"):
            region = app.screen.query_one(button).region
            assert region.height == 3 and box.contains_region(region) and region.bottom < 24, (button, region, box)
        await pilot.press("escape")
        thread.join(5)
