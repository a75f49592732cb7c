"""The explorer as a QA and demo tool: focus that never surprises, back after following an entity,
keys and theme from opgate.toml, writes behind a deliberate key, pickers, exports and sizes."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from pilot_helpers import API_SPEC, ENGINEERING, PROJECT, settle, type_text, wait_until
from rich.console import Console
from textual import events
from textual.widgets import Input

from opgate.core import Gateway
from opgate.core.config import load_config
from opgate.tui import make_app
from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen, ExplorerScreen, ExportCallScreen, IdPickerScreen, JumpScreen, ResetDemoScreen
from opgate.tui.widgets import CallBuilder, DiffView, EntityLinks, FormField, OpDocs, OpTree, ResultView

pytestmark = pytest.mark.anyio
MOVE = {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}


def text_of(renderable) -> str:
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


def focused_field(app) -> FormField | None:
    focused = app.focused
    return next((w for w in focused.ancestors_with_self if isinstance(w, FormField)), None) if focused else None


async def test_opening_an_op_focuses_the_first_empty_required_field_without_selecting(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.document.tree.move", {"project_id": PROJECT})
        await settle(pilot)
        field = focused_field(app)
        assert field is not None and field.slot.path == ("document_id",), "project_id is filled: document_id is next"
        await app.screen.open_op("onto.document.tree.move", MOVE)
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        box = app.focused
        assert isinstance(box, Input) and box.value == PROJECT and box.selection.is_empty, "a picked id is never selected"
        await pilot.press("x")
        assert box.value.startswith(PROJECT), "the next key does not replace the id"


async def test_slash_types_in_a_field_and_opens_find_elsewhere(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.task.create")
        await settle(pilot)
        field = app.screen.query_one(CallBuilder)
        title = next(f for f in field.query(FormField) if f.slot.path == ("title",))
        title.focus_input()
        await type_text(pilot, "a")
        await pilot.press("slash")
        await type_text(pilot, "b")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen) and app.screen.call_args["title"] == "a/b"
        await pilot.press("ctrl+f")
        await settle(pilot)
        assert isinstance(app.screen, JumpScreen), "ctrl+f opens Find even while typing"
        await pilot.press("escape")
        await settle(pilot)
        app.screen.query_one(OpTree).focus()
        await pilot.press("slash")
        await settle(pilot)
        assert isinstance(app.screen, JumpScreen), "/ opens Find from the tree"


async def test_back_returns_to_the_call_being_built_after_following_an_entity(app):
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move", MOVE)
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        links = screen.query_one(EntityLinks)
        ids = [links.get_option_at_index(i).id for i in range(links.option_count)]
        links.focus()
        links.highlighted = ids.index(PROJECT)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(CallBuilder).record.op == "onto.project.get"
        crumb = screen.query_one("#breadcrumb")
        assert crumb.display and "onto.document.tree.move" in str(crumb.render())
        await pilot.press("escape")
        await settle(pilot)
        assert screen.query_one(CallBuilder).record.op == "onto.document.tree.move" and screen.call_args == MOVE
        assert screen.query_one(ResultView).envelope["meta"]["dry_run"], "the dry-run shown before is shown again"
        assert not crumb.display


async def test_keys_and_theme_come_from_the_config_file(tmp_path: Path, gateway):
    config_file = tmp_path / "opgate.toml"
    config_file.write_text('[explorer]\ntheme = "textual-light"\n[explorer.keymap]\n"opgate.dry_run" = "f10"\n"opgate.nothing" = "f11"\n', encoding="utf-8")
    config = load_config(config_file)
    app = make_app(gateway, keymap=dict(config.keymap), theme=config.theme)
    async with app.run_test(size=(120, 36)) as pilot:
        assert app.theme == "textual-light"
        assert any("opgate.nothing" in n.message for n in app._notifications), "an unknown binding id is reported"
        await app.screen.open_op("onto.document.tree.move", MOVE)
        await settle(pilot)
        await pilot.press("f10")
        await settle(pilot)
        assert app.screen.query_one(ResultView).envelope["meta"]["dry_run"]


async def test_writes_need_a_deliberate_key_and_one_confirmation(app, gateway):
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.press("ctrl+l")
        await settle(pilot)
        assert not gateway.allow_write, "ctrl+l is clear-screen, not writes"
        await pilot.press("f8")
        await settle(pilot)
        assert isinstance(app.screen, AllowWriteScreen) and not gateway.allow_write
        await pilot.press("n")
        await settle(pilot)
        assert not gateway.allow_write
        await pilot.press("f8")
        await settle(pilot)
        await pilot.press("w")
        await settle(pilot)
        assert gateway.allow_write
        await pilot.press("f8")
        await settle(pilot)
        assert not gateway.allow_write and isinstance(app.screen, ExplorerScreen), "turning writes off never asks"


async def test_the_new_parent_picker_offers_root_and_not_the_moved_document(app):
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move", {"project_id": PROJECT, "document_id": ENGINEERING, "new_parent_id": API_SPEC})
        await settle(pilot)
        field = next(f for f in screen.query(FormField) if f.slot.path == ("new_parent_id",))
        field.focus_input()
        await pilot.press("f7")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, IdPickerScreen)
        options = picker.query_one("#picker-choices")
        labels = [str(options.get_option_at_index(i).prompt) for i in range(options.option_count)]
        assert labels[0].startswith("(root)")
        assert not any("Engineering" in label or "Runbooks" in label for label in labels), "neither the moved folder nor what is under it"
        assert any("folder" in label for label in labels) and any("document (spec)" in label for label in labels)
        options.highlighted = 0
        options.focus()
        await pilot.press("enter")
        await settle(pilot)
        assert screen.call_args["new_parent_id"] is None


async def test_integer_fields_say_why_text_was_refused(app):
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.list")
        await settle(pilot)
        field = next(f for f in screen.query(FormField) if f.slot.path == ("limit",))
        field.focus_input()
        await type_text(pilot, "1x")
        await settle(pilot)
        assert field.error.endswith("x' is not a whole number: type digits only, such as 3 or -2")


async def test_required_fields_come_first(app):
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.task.create")
        await settle(pilot)
        fields = [f for f in app.screen.query(FormField) if len(f.slot.path) == 1]
        required = [f.slot.spec.required for f in fields]
        assert required == sorted(required, reverse=True) and required[0]


async def test_docs_follow_the_call_being_built(app):
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.create")
        await settle(pilot)
        screen.query_one(OpTree).reveal("onto.goal.list")  # the cursor wanders while the call is built
        await settle(pilot)
        screen.query_one(CallBuilder).focus_first_needed()
        await pilot.press("f2")
        await settle(pilot)
        assert screen.query_one(OpDocs).payload["op"] == "onto.task.create"


async def test_a_dry_run_exports_as_markdown_and_json(app, tmp_path: Path):
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move", MOVE)
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        for name in ("report.md", "report.json"):
            await pilot.press("ctrl+e")
            await settle(pilot)
            assert isinstance(app.screen, ExportCallScreen)
            box = app.screen.query_one("#export-path", Input)
            box.value = str(tmp_path / name)
            await pilot.press("enter")
            await settle(pilot)
        markdown = (tmp_path / "report.md").read_text(encoding="utf-8")
        assert markdown.startswith("# onto.document.tree.move: dry-run, nothing was written")
        assert '- ~ updated document "API Spec"' in markdown and 'parent: (root) → "Engineering" 5000…0001' in markdown
        report = json.loads((tmp_path / "report.json").read_text(encoding="utf-8"))
        assert report["args"] == MOVE and report["envelope"]["meta"]["diff"]["updated"][0]["id"] == API_SPEC


async def test_the_confirmation_shows_names_and_the_ids_the_run_creates(app, gateway):
    gateway.allow_write = True
    app.allow_write = True
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.create", {"project_id": PROJECT, "title": "Signed off"})
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        dry_id = screen.query_one(ResultView).envelope["meta"]["diff"]["created"][0]["id"]
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))
        confirm = app.screen
        shown = confirm.query_one(DiffView)
        assert shown.diff["created"][0]["id"] == dry_id
        text = text_of(shown.render())
        assert "Relay 2.0 Launch" in text and 'title: "Signed off"' in text
        await pilot.press("y")
        await settle(pilot)
        run = screen.query_one(ResultView).envelope
        assert run["ok"] and not run["meta"].get("dry_run") and run["meta"]["diff"]["created"][0]["id"] == dry_id
        assert gateway.exec("onto.task.get", {"task_id": dry_id})["result"]["task"]["title"] == "Signed off"


async def test_reset_demo_from_the_palette_asks_first(tmp_path: Path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    try:
        created = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "Scratch"})["result"]["task"]["id"]
        app = make_app(gateway)
        async with app.run_test(size=(120, 36)) as pilot:
            app.action_reset_demo()
            await settle(pilot)
            assert isinstance(app.screen, ResetDemoScreen)
            await pilot.press("n")
            await settle(pilot)
            assert gateway.exec("onto.task.get", {"task_id": created})["ok"], "Cancel keeps everything"
            app.action_reset_demo()
            await settle(pilot)
            await pilot.press("r")
            await settle(pilot)
            assert gateway.exec("onto.task.get", {"task_id": created})["error"]["code"] == "NOT_FOUND"
    finally:
        gateway.close()


@pytest.mark.parametrize("size", [(60, 20), (80, 24), (120, 36)])
async def test_the_form_shows_its_inputs_at_every_size(app, size):
    async with app.run_test(size=size) as pilot:
        await app.screen.open_op("onto.document.tree.move")
        await settle(pilot)
        inputs = [w for w in app.screen.query(Input) if w.region.height > 0]
        assert len(inputs) >= 2, f"at {size} the form shows {len(inputs)} inputs"
        footer_keys = {b.binding.action for b in app.screen.active_bindings.values() if b.binding.show}
        assert "app.quit" in footer_keys


async def test_a_slash_typed_quickly_into_a_field_types_a_slash(app):
    """Keys that arrive together reach the app before the field has taken the first: "/" must not
    be judged on a value that is about to change. In a text field "/" always types (ctrl+f finds)."""
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.task.create")
        await settle(pilot)
        title = next(f for f in app.screen.query_one(CallBuilder).query(FormField) if f.slot.path == ("title",))
        title.focus_input()
        await settle(pilot)
        for key, char in (("a", "a"), ("slash", "/"), ("b", "b"), ("slash", "/")):
            app._driver.send_message(events.Key(key, char))
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen), "a slash typed after a letter does not open Find"
        assert app.screen.call_args["title"] == "a/b/"
        box = next(i for i in app.screen.query_one(CallBuilder).query(Input) if not i.value)
        box.focus()
        await settle(pilot)
        await pilot.press("slash")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen) and box.value == "/", "a path or URL may begin with a slash"


async def test_an_export_says_where_it_wrote_or_why_it_could_not(app, tmp_path: Path):
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op("onto.document.tree.move", MOVE)
        await settle(pilot)
        await pilot.press("f5")
        await settle(pilot)
        for path in (tmp_path / "report.md", tmp_path / "report.md" / "inside-a-file.md"):
            await pilot.press("ctrl+e")
            await settle(pilot)
            app.screen.query_one("#export-path", Input).value = str(path)
            await pilot.press("enter")
            await settle(pilot)
        said = [(n.title, n.severity) for n in app._notifications]
        assert ("Exported", "information") in said and ("Export failed", "error") in said, said
