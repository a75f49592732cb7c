"""Browse: the lazy tree, docs, finding ops by path and by words, the context switch, the palette."""

from __future__ import annotations

import pytest
from pilot_helpers import TWILIO, settle, type_text

from opgate.core import Gateway
from opgate.tui import make_app
from opgate.tui.screens import ContextScreen, ExplorerScreen, JumpScreen
from opgate.tui.widgets import CallBuilder, GatewayBar, OpDocs, OpTree

pytestmark = pytest.mark.anyio


async def test_tree_loads_children_only_when_opened(app):
    async with app.run_test(size=(100, 30)) as pilot:
        tree = app.screen.query_one(OpTree)
        top = [n.data.path for n in tree.root.children]
        assert top == ["onto", "util"]
        onto = tree.root.children[0]
        assert len(onto.children) == 0 and not onto.data.loaded
        tree.move_cursor(onto)
        await pilot.press("right")
        assert onto.data.loaded and "onto.document" in [c.data.path for c in onto.children]
        document = next(c for c in onto.children if c.data.path == "onto.document")
        tree.move_cursor(document)
        await pilot.press("right")
        assert [(c.data.kind, c.data.bucket, c.data.counts[0]) for c in document.children] == [("bucket", "read", 5), ("bucket", "write", 4)]
        write = document.children[1]
        tree.move_cursor(write)
        await pilot.press("right")
        ops = {c.data.path: c.data.badges for c in write.children}
        assert ops["onto.document.tree.move"] == ("write",)
        assert ops["onto.document.delete"] == ("write", "destructive", "confirmation")


async def test_highlighting_an_op_shows_its_docs(app):
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        assert screen.query_one(OpTree).reveal("onto.task.create")
        await settle(pilot)
        payload = screen.query_one(OpDocs).payload
        assert payload["op"] == "onto.task.create" and payload["policy"]["do"]
        await pilot.press("f2")
        await settle(pilot)
        await pilot.press("f2")
        assert screen.query_one(OpDocs).show_schema, "F2 on the Docs tab shows the schema"
        await pilot.press("f12")  # ctrl+s saves the call to a collection; the schema toggle is F12
        assert not screen.query_one(OpDocs).show_schema, "F12 toggles the schema back off"


async def test_find_by_path_letters_opens_the_op(app):
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("slash")
        assert isinstance(app.screen, JumpScreen)
        await type_text(pilot, "doctreemove")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)
        assert app.screen.query_one(CallBuilder).record.op == "onto.document.tree.move"
        assert app.screen.query_one(OpTree).cursor_node.data.path == "onto.document.tree.move"


async def test_find_in_plain_words_uses_gateway_search(app):
    messages = []
    async with app.run_test(size=(100, 30), message_hook=messages.append) as pilot:
        await pilot.press("slash")
        await type_text(pilot, "delete a goal")
        await settle(pilot)
        searched = [m for m in messages if isinstance(m, JumpScreen.Searched)]
        assert searched and searched[-1].results[0]["op"] == "onto.goal.delete"
        jump = app.screen
        assert any((o.id or "").startswith("search:onto.goal.delete") for o in jump.query_one("#jump-results")._options)


async def test_a_state_change_found_in_words_opens_with_its_suggested_args(app):
    messages = []
    async with app.run_test(size=(100, 30), message_hook=messages.append) as pilot:
        await pilot.press("slash")
        await type_text(pilot, "mark the task done")
        for _ in range(20):
            await settle(pilot)
            if any(isinstance(m, JumpScreen.Searched) and m.query == "mark the task done" for m in messages):
                break
        jump = app.screen
        jump.query_one("#jump-results").highlighted = next(i for i, o in enumerate(jump.query_one("#jump-results")._options) if o.id == "search:onto.task.update")
        await pilot.press("enter")
        await settle(pilot)
        builder = app.screen.query_one(CallBuilder)
        assert builder.record.op == "onto.task.update"
        assert builder.args.get("state_key") == "done"


async def test_context_switch_rebuilds_the_tree(app, gateway):
    async with app.run_test(size=(100, 30)) as pilot:
        before = gateway.help_tree.root.total
        await pilot.press("ctrl+g")
        assert isinstance(app.screen, ContextScreen)
        app.screen.dismiss("calendar")
        await settle(pilot)
        assert gateway.context == "calendar" and app.context == "calendar"
        bar = app.screen.query_one(GatewayBar)
        assert bar.context == "calendar" and bar.ops == gateway.help_tree.root.total < before
        shown = {c.data.path for c in app.screen.query_one(OpTree).root.children}
        assert shown == set(gateway.help_tree.root.children)
        app.set_context("all")
        await settle(pilot)
        assert gateway.context is None and app.screen.query_one(GatewayBar).ops == before


async def test_header_names_catalogue_database_and_mode(app, gateway):
    async with app.run_test(size=(120, 30)):
        bar = app.screen.query_one(GatewayBar)
        assert bar.catalog == "built-in catalogue" and bar.db == gateway.db_location and not bar.allow_write


async def test_palette_offers_every_visible_op_and_the_actions(app, gateway):
    from opgate.tui._commands import OpCommands

    async with app.run_test(size=(100, 30)) as pilot:
        provider = OpCommands(app.screen)
        hits = [hit async for hit in provider.discover()]
        assert len(hits) == gateway.help_tree.root.total
        found = [hit async for hit in provider.search("go to op tree.move")]
        assert found and "onto.document.tree.move" in str(found[0].match_display)
        await found[0].command()
        await settle(pilot)
        assert app.screen.query_one(CallBuilder).record.op == "onto.document.tree.move"
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert {"Help", "History", "Writes", "Dry-run", "Run", "Find", "Copy as JSON payload"} <= set(titles)


async def test_twilio_tree_loads_only_what_is_shown(tmp_path, closed_after):
    """Speed is bench_tui.py's; here, that the tree builds its groups lazily and can still reveal any op."""
    gw = closed_after(Gateway.from_catalogs([TWILIO], db_path=tmp_path / "t.db"))
    app = make_app(gw, str(TWILIO))
    async with app.run_test(size=(100, 30)) as pilot:
        tree = app.screen.query_one(OpTree)
        assert tree.root.children[0].data.path == "twilio"
        await pilot.press("right")
        loaded = sum(1 for _ in _walk(tree.root))
        assert loaded < 100  # only the top groups exist, not 1,447 ops
        for _ in range(20):
            await pilot.press("down")
        assert tree.reveal("twilio.api_v2010.account.call.create") or tree.reveal(next(r.op for r in gw.help_tree.root.ops()))


def _walk(node):
    for child in node.children:
        yield child
        yield from _walk(child)


async def test_panes_still_pending_when_the_app_exits_are_left_alone(app):
    # ctrl+q pressed before the first frame's refresh used to reach the pending
    # mount of the Build and Result panes, whose MountError crashed the exit.
    async with app.run_test(size=(100, 30)) as pilot:
        screen = app.screen
        await settle(pilot)
        await screen.query_one(CallBuilder).remove()
        screen.panes_mounted = False
        app.exit()
        assert await screen.mount_panes() is False
        ran = []
        screen.after_panes(lambda: ran.append(True))
        await pilot.pause()
        assert ran == []
