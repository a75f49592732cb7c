"""The merged keymap: no two bindings live at once share a key, terminals' own keys stay free, and the moved keys work."""

from __future__ import annotations

import io

import pytest
from pilot_helpers import settle
from rich.console import Console
from textual.widgets import Input, TextArea

from opgate.tui._keys import ALL_KEYS, APP_KEYS, EXPLORER_KEYS, FORM_KEYS, HISTORY_KEYS, RESULT_KEYS
from opgate.tui.screens import ExportCallScreen, HistoryScreen, KeysHelpScreen
from opgate.tui.widgets import CollectionBrowser, OpTree

pytestmark = pytest.mark.anyio

# Keys many terminals take for themselves (menu bar, full screen) before the explorer sees them,
# and control keys that are other keys on the wire (ctrl+m is Enter, ctrl+i Tab, ctrl+h Backspace, ctrl+[ Esc).
TERMINAL_KEYS = {"f10", "f11", "ctrl+m", "ctrl+i", "ctrl+h", "ctrl+j", "ctrl+left_square_bracket"}


def _keys(bindings) -> list[str]:
    return [key.strip() for binding in bindings for key in binding.key.split(",")]


@pytest.mark.parametrize(("where", "bindings"), [
    ("explorer, typing in a form field", [*APP_KEYS, *EXPLORER_KEYS, *FORM_KEYS]),
    ("history", [*APP_KEYS, *HISTORY_KEYS]),
    ("explorer, in the Result's entities", [*APP_KEYS, *EXPLORER_KEYS, *RESULT_KEYS]),
])
def test_no_two_bindings_live_at_once_share_a_key(where, bindings):
    keys = _keys(bindings)
    assert sorted({k for k in keys if keys.count(k) > 1}) == [], where


def test_no_default_key_is_one_a_terminal_takes_first():
    assert set(_keys(ALL_KEYS)) & TERMINAL_KEYS == set()


def test_every_binding_has_its_own_id():
    ids = [b.id for b in ALL_KEYS]
    assert None not in ids and len(ids) == len(set(ids))


async def test_ctrl_o_shows_the_collections_and_ctrl_backslash_hides_whichever_left_pane_is_shown(app):
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        tree, browser = screen.query_one(OpTree), screen.query_one(CollectionBrowser)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert browser.display and not tree.display and browser.has_focus
        await pilot.press("ctrl+backslash")
        await settle(pilot)
        assert not browser.display and not tree.display, "the collections are hidden, and the tree does not come back in their place"
        await pilot.press("ctrl+backslash")
        await settle(pilot)
        assert tree.display and not browser.display
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press("ctrl+o")
        await settle(pilot)
        assert tree.display and not browser.display and tree.has_focus


async def test_ctrl_n_maximises_the_focused_left_pane_and_gives_it_back(app):
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        await pilot.press("ctrl+o")
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.maximized is screen.query_one(CollectionBrowser)
        await pilot.press("ctrl+n")
        await settle(pilot)
        assert screen.maximized is None


async def test_in_the_history_slash_and_ctrl_f_filter_and_in_the_explorer_they_find(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        history = app.screen
        assert isinstance(history, HistoryScreen)
        for key in ("slash", "ctrl+f"):
            history.query_one("#history-table").focus()
            await pilot.press(key)
            await settle(pilot)
            assert app.screen is history and app.focused is history.query_one("#history-filter"), key


async def test_the_keys_help_shows_the_final_keys(app):
    async with app.run_test(size=(120, 60)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        assert isinstance(app.screen, KeysHelpScreen)
        console = Console(width=116, record=True, file=io.StringIO())
        console.print(app.screen._keys_table())  # the table the help screen shows
        shown = console.export_text()
        for key, action in (("^o", "Collections"), ("^s", "Save"), ("f7", "Pick id"), ("f8", "Writes"), ("f12", "Schema"), ("^n", "Maximise")):
            line = next((line for line in shown.splitlines() if f" {action} " in f" {line} "), "")
            assert line.split()[0] == key, f"{action}: {line!r}"


async def test_the_keys_help_lists_the_binding_ids_a_keymap_names(gateway):
    """opgate.toml's [explorer.keymap] names bindings by id, and the warning about a wrong one says F1 lists them: it does."""
    from opgate.tui import make_app
    from opgate.tui._keys import SECTIONS

    app = make_app(gateway, keymap={"opgate.dry_run": "ctrl+y"})
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("f1")
        await settle(pilot)
        console = Console(width=76, record=True, file=io.StringIO())
        console.print(app.screen._keys_table())
        shown = console.export_text()
        for _, bindings in SECTIONS:
            for binding in bindings:
                assert binding.id in shown, binding.id
        dry_run = next(line for line in shown.splitlines() if " Dry-run " in line)
        assert dry_run.split()[0] == "^y", "the key the keymap moved it to"


async def test_the_palette_lists_each_action_once_and_none_that_would_do_nothing(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot)
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles.count("Find") == 1, titles
        assert "Back" not in titles, "nothing to go back to yet"
        assert {"Help", "Dry-run", "Run", "Writes", "History", "Quit"} <= set(titles), titles


@pytest.mark.parametrize("widget", [Input, TextArea], ids=["form field", "raw JSON editor"])
def test_no_explorer_key_is_taken_by_the_field_being_typed_in(widget):
    """Where a call is built, the focus sits in an Input or the JSON editor: a key those bind for themselves never
    reached the explorer unless it is a priority binding. ctrl+e (Export) moved the cursor to the end of the line,
    so right after a run the export could not be reached from the keyboard."""
    own = set(_keys(widget.BINDINGS))
    taken = [b.id for b in (*APP_KEYS, *EXPLORER_KEYS) if not b.priority and set(_keys([b])) & own]
    assert taken == []


async def test_ctrl_e_exports_from_a_form_field_after_a_dry_run(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.get", {"task_id": "20000000-0000-4000-8000-000000000001"})
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        await screen.open_op("onto.task.get", {"task_id": "20000000-0000-4000-8000-000000000001"})
        await settle(pilot)
        assert isinstance(app.focused, Input)
        await pilot.press("ctrl+e")
        await settle(pilot)
        assert isinstance(app.screen, ExportCallScreen)
