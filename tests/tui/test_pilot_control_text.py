"""Control characters in catalogue and stored text show as escapes in the explorer, as the REPL shows them.

The explorer's terminal guard drops every control character that reaches a
line it draws, so a bidirectional control (U+202E turns what follows around)
vanished from a title without a mark: a QA engineer could not see that the
title held one. Each test reads the frame the explorer lays out (before the
guard) and finds the escape (``\\u202e``) where the character was, and no
control character left to drop.
"""

from __future__ import annotations

import re

import pytest
from hostile_catalog import write_control_form_catalog
from pilot_helpers import PROJECT, screen_text, settle

from opgate.core import Binding, Gateway, Registry
from opgate.core._record import replace
from opgate.core.exec import Handler
from opgate.tui import make_app
from opgate.tui.screens import HistoryScreen, IdPickerScreen, JumpScreen
from opgate.tui.widgets import FormField

pytestmark = pytest.mark.anyio

SEQUENCES = "\u202eRTL\u202c \u2066iso\u2069 \x1b[31m"
SHOWN = "\\u202eRTL\\u202c \\u2066iso\\u2069 \\x1b[31m"
JSON_SHOWN = "\\u202eRTL\\u202c \\u2066iso\\u2069 \\u001b[31m"  # the same text in JSON, where an escape keeps the value
OP = "sneakyform.sneakyform.get"
CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def no_control_left(app, *, typed: str = "\0") -> str:
    """The frame's text, after checking that the terminal guard would have nothing to drop from it
    (but in ``typed``, a value in an input: the head of its field names its controls)."""
    text = screen_text(app)
    hidden = [line.strip() for line in text.splitlines() if CONTROLS.search(line.replace(typed, ""))]
    assert not hidden, f"control characters the terminal would not show: {hidden}"
    return text


def head(field: FormField) -> str:
    return field.query_one(".field-head").render().plain


@pytest.fixture
def control_gateway(tmp_path):
    # The op is bound to a handler on the store executor that echoes its arguments, so a run shows them back.
    loaded = Gateway.from_catalogs([write_control_form_catalog(tmp_path, SEQUENCES)], db_path=tmp_path / "w.db").registry
    registry = Registry([replace(r, binding=Binding("store")) for r in loaded], loaded.problems, group_summaries=loaded.group_summaries)
    handlers = {r.op: Handler(lambda ctx, args: {"echo": args}) for r in registry}
    gateway = Gateway(registry, db_path=tmp_path / "w.db", handlers=handlers)
    yield gateway
    gateway.close()


async def test_docs_form_and_finder_show_catalogue_controls_as_escapes(control_gateway):
    app = make_app(control_gateway, "control catalogue")
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        assert screen.query_one("OpTree").reveal(OP)
        await settle(pilot)
        docs = no_control_left(app)
        for text in (f"Summary {SHOWN}", f"Description {SHOWN}", f"mode{SHOWN}", f"on{SHOWN}", f"Do {SHOWN}", f"Note {SHOWN}", f"Example {SHOWN}"):
            assert text in docs, text
        assert f'"example {JSON_SHOWN}"' in docs, "the example's arguments are JSON: escaped the JSON way"
        await screen.open_op(OP)
        await settle(pilot)
        form = no_control_left(app, typed=f"default {SEQUENCES}")
        assert f"mode{SHOWN[:16]}" in form, "the field's head (cut to the pane) names the argument with the escapes"
        assert f'"title": "default {JSON_SHOWN}"' in form, "the raw JSON editor shows the default's controls as escapes"
        await pilot.press("slash")
        await settle(pilot)
        assert isinstance(app.screen, JumpScreen)
        await pilot.press(*"summary")
        await settle(pilot)
        assert f"Summary {SHOWN}" in no_control_left(app)


async def test_a_text_field_holding_controls_names_them_in_its_head(control_gateway):
    """An input cannot show a control character, so the field's head names the ones its value holds."""
    app = make_app(control_gateway, "control catalogue")
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        await screen.open_op(OP, {"title": "plain"})
        await settle(pilot)
        field = next(f for f in screen.query(FormField) if f.slot.label == "title")
        assert "holds" not in head(field)
        await screen.open_op(OP, {"title": f"x{SEQUENCES}"})
        await settle(pilot)
        field = next(f for f in screen.query(FormField) if f.slot.label == "title")
        assert "holds \\u202e \\u202c \\u2066 \\u2069 \\x1b" in head(field)


async def test_a_run_and_its_history_row_show_the_controls_it_echoed(control_gateway):
    app = make_app(control_gateway, "control catalogue")
    async with app.run_test(size=(160, 50)) as pilot:
        screen = app.screen
        await screen.open_op(OP, {"title": f"x{SEQUENCES}"})
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        assert screen.query_one("ResultView").envelope["ok"]
        assert f'"title": "x{JSON_SHOWN}"' in no_control_left(app)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        assert f'title="x{JSON_SHOWN[:30]}' in no_control_left(app), "the row's arguments, cut to the column"


async def test_a_stored_title_holding_a_bidi_control_shows_it_in_links_and_the_picker(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    made = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": f"Stored {SEQUENCES}"})
    assert made["ok"], made
    app = make_app(gateway, "built-in catalogue")
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            screen = app.screen
            await screen.open_op("onto.task.get", {"task_id": made["result"]["task"]["id"]})
            await settle(pilot)
            await pilot.press("f6")
            await settle(pilot)
            result = no_control_left(app)
            assert f"Stored {SHOWN}" in result, "the entity link names the task with the escapes"
            assert f'"title": "Stored {JSON_SHOWN}"' in result
            await screen.open_op("onto.task.get", {})
            await settle(pilot)
            next(f for f in screen.query(FormField) if f.slot.label == "task_id").query_one("Input").focus()
            await pilot.press("f7")
            await settle(pilot)
            assert isinstance(app.screen, IdPickerScreen)
            await pilot.press(*"Stored")
            await settle(pilot)
            assert f"Stored {SHOWN}" in no_control_left(app)
    finally:
        gateway.close()


@pytest.mark.parametrize("tab", ["docs", "build"])
def test_docs_and_form_with_catalogue_controls(snap_compare, tmp_path, monkeypatch, tab):
    """The frame as a person sees it: every control an escape, nothing reordered; the form's head names the
    controls its input holds."""
    monkeypatch.chdir(tmp_path)
    catalog = write_control_form_catalog(tmp_path, SEQUENCES)
    gateway = Gateway.from_catalogs([catalog], db_path="w.db")
    app = make_app(gateway, "control catalogue")

    async def run_before(pilot) -> None:
        await settle(pilot)
        # The input keeps the value as it is (its head names the controls): no ESC there, which an SVG cannot hold.
        await pilot.app.screen.open_op(OP, {"title": "x\u202eRTL\u202c"})
        await settle(pilot)
        pilot.app.screen.action_show_tab(tab)
        await settle(pilot, delay=0.3)
        for widget in pilot.app.screen.query("Input, TextArea"):
            widget.cursor_blink = False
        pilot.app.clear_notifications()

    try:
        assert snap_compare(app, terminal_size=(120, 36), run_before=run_before)
    finally:
        gateway.close()
