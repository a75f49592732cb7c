"""The explorer shows catalogue and stored text as text (issue 15, item 9).

A description holding ``[/]`` crashed the explorer with a MarkupError;
``[link=...]`` became a hidden hyperlink, ``[@click=app.quit]`` an action, and
Twilio's ``[Call](https://...)`` vanished from form tooltips. Each test walks
the widgets of a screen and reads back what Textual shows, the way Textual
reads it (a ``str`` as markup, ``Content`` and ``Text`` as they are).
"""

from __future__ import annotations

import io
import json

import pytest
from hostile_catalog import ARG, ENUM, MARKUP, OP, TITLE, TWILIO, write_hostile_catalog
from opgate.core import Binding, Gateway, Registry
from opgate.core._record import replace
from opgate.core.exec import Handler
from opgate.tui import make_app
from opgate.tui.screens import HistoryScreen, IdPickerScreen, JumpScreen
from opgate.tui.widgets import FormField, OpTree, ResultView
from pilot_helpers import PROJECT, settle
from rich.console import Console
from rich.text import Text
from textual.content import Content
from textual.widgets import DataTable, OptionList, Static, Tree

pytestmark = pytest.mark.anyio


def _plain(value: object, *, markup: bool = True) -> str:
    """What Textual shows for ``value``: a str is markup (a MarkupError here is the crash the app would have)."""
    if value is None:
        return ""
    if isinstance(value, str):
        return Content.from_markup(value).plain if markup else value
    if isinstance(value, (Content, Text)):
        return value.plain
    console = Console(file=io.StringIO(), width=1000, record=True, color_system=None)
    console.print(value)
    return console.export_text()


def shown(screen) -> str:
    """Every text the screen's widgets show: statics, tooltips, borders, tree labels, options and table cells."""
    parts: list[str] = []
    for widget in screen.query("*"):
        parts += [_plain(widget.tooltip), _plain(widget.border_title)]
        if isinstance(widget, Static):
            parts.append(_plain(widget.content, markup=widget._render_markup))
        elif isinstance(widget, Tree):
            stack = [widget.root]
            while stack:
                node = stack.pop()
                parts.append(_plain(node.label))
                stack += node.children
        elif isinstance(widget, OptionList):
            parts += [_plain(widget.get_option_at_index(i).prompt) for i in range(widget.option_count)]
        elif isinstance(widget, DataTable):
            parts += [_plain(cell) for i in range(widget.row_count) for cell in widget.get_row_at(i)]
    return "\n".join(parts)


@pytest.fixture
def hostile_gateway(tmp_path):
    # The file's ops are bound to an echo handler on the store executor, so a run reaches validation and its errors.
    loaded = Gateway.from_catalogs([write_hostile_catalog(tmp_path)], db_path=tmp_path / "w.db").registry
    registry = Registry([replace(r, binding=Binding("store")) for r in loaded], loaded.problems, group_summaries=loaded.group_summaries)
    handlers = {r.op: Handler(lambda ctx, args: {"echo": args}) for r in registry}
    gateway = Gateway(registry, db_path=tmp_path / "w.db", handlers=handlers)
    yield gateway
    gateway.close()


async def test_tree_docs_and_form_show_hostile_catalogue_text(hostile_gateway):
    app = make_app(hostile_gateway, "hostile catalogue")
    async with app.run_test(size=(200, 60)) as pilot:
        screen = app.screen
        tree = screen.query_one(OpTree)
        assert tree.reveal(OP)
        await settle(pilot)
        docs = shown(screen)
        for text in (f"Summary {MARKUP}", TWILIO, f"Mode {MARKUP}", f"Do {MARKUP}", f"Note {MARKUP}", ARG):
            assert text in docs, text
        await screen.open_op(OP)
        await settle(pilot)
        form = shown(screen)
        assert ARG in form and TWILIO in form and f"Mode {MARKUP}" in form
        for value in ENUM:
            assert value in form, value
        fields = {field.slot.label: field for field in screen.query(FormField)}
        assert _plain(fields["call_sid"].tooltip) == TWILIO, "Twilio's link text stays in the tooltip"
        await pilot.press("ctrl+t")  # the hostile example goes into the form
        await settle(pilot)
        assert app.is_running


async def test_a_run_whose_error_echoes_hostile_values_shows_them_as_they_are(hostile_gateway):
    app = make_app(hostile_gateway, "hostile catalogue")
    async with app.run_test(size=(200, 60)) as pilot:
        screen = app.screen
        await screen.open_op(OP, {ARG: "[/]nope", "call_sid": MARKUP})
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        envelope = screen.query_one(ResultView).envelope
        assert envelope["error"]["code"] == "VALIDATION_ERROR"
        assert '"[/]nope" is not one of' in shown(screen)
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen) and OP in shown(app.screen)
        await pilot.press("escape")
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot)
        assert isinstance(app.screen, JumpScreen)
        await pilot.press(*"summary")
        await settle(pilot)
        assert f"Summary {MARKUP}" in shown(app.screen)
        assert app.is_running


async def test_a_stored_title_made_of_markup_shows_as_it_is(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    made = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": TITLE})
    assert made["ok"], made
    app = make_app(gateway, "built-in catalogue")
    try:
        async with app.run_test(size=(200, 60)) as pilot:
            screen = app.screen
            await screen.open_op("onto.task.get", {"task_id": made["result"]["task"]["id"]})
            await settle(pilot)
            await pilot.press("f6")
            await settle(pilot)
            assert screen.query_one(ResultView).envelope["ok"]
            assert TITLE in shown(screen), "the result and its entity links show the title"
            await screen.open_op("onto.task.get", {})
            await settle(pilot)
            field = next(f for f in screen.query(FormField) if f.slot.label == "task_id")
            field.query_one("Input").focus()
            await pilot.press("f7")
            await settle(pilot)
            assert isinstance(app.screen, IdPickerScreen)
            await pilot.press(*"Stored")
            await settle(pilot)
            assert TITLE in shown(app.screen), "the id picker lists the title as it is"
            assert app.is_running
    finally:
        gateway.close()


async def test_an_argument_name_escape_cannot_protect_keeps_the_head_whole(tmp_path):
    """Textual's escape() leaves ``[31m`` and a trailing backslash as they are: pasted into the head's markup,
    ``mode[31m`` swallowed the closing ``[/b]`` and the head read ``mode[31m[/b] string``."""
    properties = {"mode[31m": {"type": "string"}, "dir\\": {"type": "string", "description": "A [31m folder\\"},
                  "box[0]": {"type": "object", "description": "A group", "properties": {"x[9m": {"type": "string"}}}}
    tool = {"type": "function", "function": {"name": "get_odd", "description": "Odd names", "parameters": {"type": "object", "properties": properties}}}
    catalog = tmp_path / "odd.json"
    catalog.write_text(json.dumps([tool]), encoding="utf-8")
    gateway = Gateway.from_catalogs([catalog], db_path=tmp_path / "w.db")
    app = make_app(gateway, "odd names")
    try:
        async with app.run_test(size=(160, 50)) as pilot:
            await app.screen.open_op("odd.odd.get", {"box[0]": {}})
            await settle(pilot)
            heads = {f.slot.label: _plain(f.query_one(".field-head").render()) for f in app.screen.query(FormField)}
            assert heads["mode[31m"] == "mode[31m string"
            assert heads["dir\\"] == "dir\\ string — A [31m folder\\"
            assert heads["x[9m"] == "x[9m string"
            assert "box[0]  object" in shown(app.screen), "the group's border title"
    finally:
        gateway.close()
