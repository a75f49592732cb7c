"""The explorer at 80x24, the smallest terminal a person demos on: nothing is cut, nothing is lost."""

from __future__ import annotations

import pytest
from pilot_helpers import PROJECT, settle, type_text, wait_until

from opgate.tui.screens import IdPickerScreen
from opgate.tui.widgets import FormField

pytestmark = pytest.mark.anyio
NARROW = (80, 24)


def shown_text(widget) -> str:
    """What the widget draws on the screen, line by line."""
    return "\n".join(strip.text for strip in widget.render_lines(widget.size.region))


async def test_a_field_error_wraps_instead_of_being_cut(app):
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.list")
        await settle(pilot)
        field = next(f for f in screen.query(FormField) if f.slot.path == ("limit",))
        field.focus_input()
        await type_text(pilot, "abc")
        await settle(pilot)
        label = field.query_one(".field-error")
        assert label.size.width <= field.size.width
        shown = " ".join(shown_text(label).split())
        assert shown.endswith("abc' is not a whole number: type digits only, such as 3 or -2"), shown


async def test_every_choice_of_the_id_picker_shows_its_id(app):
    """A choice that fits the list's width until its scrollbar appears wraps onto a second line then: that line is drawn too."""
    async with app.run_test(size=NARROW) as pilot:
        app.push_screen(IdPickerScreen("document_id", PROJECT))
        await settle(pilot)
        options = app.screen.query_one("#picker-choices")
        assert options.virtual_size.height > options.size.height, "the list scrolls, as the demo workspace's documents do at 80x24"
        for index in range(options.option_count):
            options.highlighted = index
            await pilot.pause()
            assert options.get_option_at_index(index).id in shown_text(options)


async def test_a_key_moved_by_the_keymap_keeps_its_place_in_the_footer(gateway):
    """The README's keymap moves Dry-run to F10: the footer still shows it beside Find, not past the 80th column."""
    from textual.widgets._footer import FooterKey

    from opgate.tui import make_app

    def footer(app) -> list[tuple[str, str]]:
        return [(key.key, key.description) for key in app.screen.query(FooterKey)]

    async with make_app(gateway).run_test(size=NARROW) as pilot:
        await settle(pilot)
        default = footer(pilot.app)
    async with make_app(gateway, keymap={"opgate.dry_run": "f10", "opgate.maximize": "f11"}).run_test(size=NARROW) as pilot:
        await settle(pilot)
        moved = footer(pilot.app)
    assert [d for _, d in moved] == [d for _, d in default]
    assert ("f10", "Dry-run") in moved and ("f5", "Dry-run") not in moved


async def test_the_history_screen_at_80_columns(gateway):
    """Its title says every key it names, and a key the keymap moved keeps its place in the footer."""
    from textual.widgets._footer import FooterKey

    from opgate.tui import make_app
    from opgate.tui.screens import HistoryScreen

    app = make_app(gateway, keymap={"opgate.history.batch": "ctrl+a"})
    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        title = " ".join(shown_text(app.screen.query_one("#history-title")).split())
        assert title.endswith("Space adds to the batch · / filters"), title
        footer = [(key.key, key.description) for key in app.screen.query(FooterKey)]
        assert footer[:2] == [("escape", "Back"), ("ctrl+a", "Batch ±")], footer


async def test_tab_to_the_entities_a_call_touched_then_enter_opens_the_first(app):
    """Tab lands on the list with nothing highlighted: Enter there did nothing until Down was pressed."""
    from pilot_helpers import API_SPEC, ENGINEERING

    from opgate.tui.widgets import CallBuilder, EntityLinks

    move = {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move", move)
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        links = screen.query_one(EntityLinks)
        first = links.get_option_at_index(0).id
        for _ in range(12):
            if app.focused is links:
                break
            await pilot.press("tab")
        assert app.focused is links
        await pilot.press("enter")
        await settle(pilot)
        record = screen.query_one(CallBuilder).record
        assert record.op.endswith(".get") and first in screen.call_args.values(), (record.op, screen.call_args)


async def test_copy_as_curl_is_offered_for_http_ops_only_and_never_copies_a_comment(app):
    async with app.run_test(size=NARROW) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.list")
        await settle(pilot)
        titles = [command.title for command in app.get_system_commands(screen)]
        assert "Copy as JSON payload" in titles and not any("curl" in title for title in titles), titles
        screen.copy_as("curl")
        await settle(pilot)
        shown = [(n.title, n.message) for n in app._notifications]
        assert any(title == "Nothing copied" for title, _ in shown), shown
        assert not any(title.startswith("Copied") for title, _ in shown), shown


async def test_an_upstream_that_did_not_start_is_said_at_once(tmp_path):
    """Its ops are missing from the tree; without a word the person looks for them in vain."""
    import json

    from opgate.core import Gateway
    from opgate.core.executors.mcp import Upstreams
    from opgate.tui import make_app

    servers = tmp_path / "servers.json"
    servers.write_text(json.dumps({"mcpServers": {"ghost": {"command": str(tmp_path / "no-such-server")}}}), encoding="utf-8")
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([servers]))
    try:
        async with make_app(gateway).run_test(size=NARROW) as pilot:
            await settle(pilot)
            shown = [n.message for n in pilot.app._notifications]
    finally:
        gateway.close()
    assert any("ghost" in message and "not found" in message for message in shown), shown


async def test_the_footer_shows_whole_keys_and_save_at_80_columns(app):
    """A key the footer has no room for is left out whole (F1 lists it), never cut; ^s Save fits at 80 columns."""
    from textual.widgets._footer import FooterKey

    from opgate.tui.widgets import KeyFooter

    async with app.run_test(size=NARROW) as pilot:
        for op in (None, "onto.document.tree.move", "onto.task.create"):
            if op:
                await app.screen.open_op(op)
            await settle(pilot)
            footer = app.screen.query_one(KeyFooter)
            keys = [k for k in footer.query(FooterKey) if "-command-palette" not in k.classes]
            palette = footer.query_one(".-command-palette")
            shown = [(k.key, k.description) for k in keys]
            for key in keys:
                assert key.region.right <= palette.region.x, f"{key.description!r} runs under the palette key: {shown}"
            assert ("ctrl+s", "Save") in shown, f"{op}: {shown}"
            assert ("f5", "Dry-run") in shown and ("f6", "Run") in shown and ("f1", "Help") in shown


async def test_in_a_form_field_the_footer_starts_with_its_own_key_whatever_the_screen_takes_over(app):
    """ctrl+e (Export) is a priority key of the screen, and it takes the place of the Input's own ctrl+e in the
    active bindings: the footer put the screen's keys first, and F7 (Pick id) fell off at 80 columns."""
    from textual.widgets._footer import FooterKey

    async with app.run_test(size=NARROW) as pilot:
        await app.screen.open_op("onto.document.tree.move")
        await settle(pilot)
        assert app.focused is not None and type(app.focused).__name__ == "FormInput"
        keys = [(k.key, k.description) for k in app.screen.query(FooterKey) if "-command-palette" not in k.classes]
        assert keys[0] == ("f7", "Pick id"), keys


async def test_the_history_footer_says_how_to_go_back_at_80_columns(app):
    from textual.widgets._footer import FooterKey

    from opgate.tui.screens import HistoryScreen

    async with app.run_test(size=NARROW) as pilot:
        await pilot.press("ctrl+r")
        await settle(pilot)
        assert isinstance(app.screen, HistoryScreen)
        footer = [(key.key, key.description) for key in app.screen.query(FooterKey)]
        assert footer[0] == ("escape", "Back"), footer
        palette = app.screen.query_one(".-command-palette")
        for key in app.screen.query(FooterKey):
            assert key is palette or key.region.right <= palette.region.x, f"{key.description!r} is cut by the palette key: {footer}"
        assert ("ctrl+d", "Dry-run batch") in footer, footer  # Enter belongs to the table (its title says Enter re-opens)


async def test_the_copy_menu_cuts_a_long_preview_with_an_ellipsis_on_one_row(app):
    """The preview was cut at 70 characters and wrapped: '{"project_id":"10000000-0000-4000' read as if it were the whole call."""
    from opgate.tui.screens import CopyScreen

    async with app.run_test(size=NARROW) as pilot:
        await app.screen.open_op("onto.document.tree.move", {"project_id": PROJECT, "document_id": PROJECT})
        await settle(pilot)
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, CopyScreen)
        options = app.screen.query_one("#copy-list")
        rows = [line.strip() for line in shown_text(options).splitlines() if line.strip()]
        assert len(rows) == 2 * options.option_count, rows
        previews = rows[1::2]
        assert previews[1].startswith("opgate exec onto.document.tree.move") and previews[1].endswith("…"), previews


async def test_no_toast_covers_the_confirmation_after_writes_are_allowed_at_80x24(app):
    """Allowing writes from F6 goes straight on to the confirmation: no toast may sit on its buttons."""
    from textual.widgets._toast import Toast

    from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen

    async with app.run_test(size=NARROW, notifications=True) as pilot:
        await app.screen.open_op("onto.task.create", {"project_id": PROJECT, "title": "Write release notes"})
        await settle(pilot)
        await pilot.press("f5")  # a dry-run first, as a QA engineer does: its own toast must not linger over the question
        await settle(pilot)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, AllowWriteScreen)
        await pilot.press("w")
        await settle(pilot, delay=0.3)
        assert isinstance(app.screen, ConfirmRunScreen) and app.allow_write
        box = app.screen.query_one("#confirm-box").region
        covering = [toast for toast in app.screen.query(Toast) if toast.region.overlaps(box)]
        assert not covering, [str(toast.render()) for toast in covering]


async def test_the_confirmation_of_a_long_diff_keeps_its_buttons_whole_at_60x20(app, gateway):
    """A plan's delete touches several tasks: the diff scrolls, and "Run it (y)" and "Cancel (n)" stay on screen."""
    from opgate.tui.screens import ConfirmRunScreen

    gateway.allow_write = True
    app.allow_write = True
    async with app.run_test(size=(60, 20)) as pilot:
        await app.screen.open_op("onto.plan.delete", {"plan_id": "40000000-0000-4000-8000-000000000005"})
        await settle(pilot)
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))  # the run waits on the answer
        await pilot.pause(0.3)
        box = app.screen.query_one("#confirm-box").region
        for button in ("#confirm-yes", "#confirm-no"):
            region = app.screen.query_one(button).region
            assert region.height == 3 and box.contains_region(region) and region.bottom < 20, (button, region, box)
