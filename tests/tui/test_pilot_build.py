"""Build a call: the generated form (nested, arrays, variants), live validation, JSON sync, examples, ids, copy."""

from __future__ import annotations

import json

import pytest
from pilot_helpers import API_SPEC, ENGINEERING, GITHUB, PROJECT, settle, type_text

from opgate.core import Gateway
from opgate.tui import make_app
from opgate.tui.screens import CopyScreen, IdPickerScreen
from opgate.tui.widgets import CallBuilder, FormField, FormGroup, JsonEditor, PayloadView

pytestmark = pytest.mark.anyio


def field(screen, *path) -> FormField:
    return next(f for f in screen.query(FormField) if f.slot.path == tuple(path))


def group(screen, *path) -> FormGroup:
    return next(g for g in screen.query(FormGroup) if g.slot.path == tuple(path))


async def fill(pilot, screen, path, text, *, keys: bool = False) -> None:
    """Put ``text`` in the input at ``path``: typed key by key, or set at once (the same Input.Changed)."""
    target = field(screen, *path)
    target.focus_input()
    if keys:
        await type_text(pilot, text)
    else:
        target.query_one("Input").value = text
    await settle(pilot)


async def test_nested_form_with_defs_builds_project_create(app):
    messages = []
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        screen = app.screen
        await screen.open_op("onto.project.create")
        await settle(pilot)
        builder = screen.query_one(CallBuilder)
        assert builder.args == {"project": {"state_key": "draft"}, "entities": [], "relationships": []}
        await fill(pilot, screen, ("project", "name"), "Garden", keys=True)
        group(screen, "entities").query_one(".add").press()
        await settle(pilot)
        assert builder.args["entities"] == [{"state_key": "todo", "priority": 3}] or builder.args["entities"][0].get("temp_id") is None
        await fill(pilot, screen, ("entities", 0, "temp_id"), "task_1")
        kind = field(screen, "entities", 0, "kind")
        kind.query_one("Select").value = kind._choices().index("task")
        await settle(pilot)
        await fill(pilot, screen, ("entities", 0, "name"), "Dig beds")
        group(screen, "entities").query_one(".add").press()
        await settle(pilot)
        await fill(pilot, screen, ("entities", 1, "temp_id"), "goal_1")
        goal = field(screen, "entities", 1, "kind")
        goal.query_one("Select").value = goal._choices().index("goal")
        await fill(pilot, screen, ("entities", 1, "name"), "Grow food")
        group(screen, "relationships").query_one(".add").press()
        await settle(pilot)
        await fill(pilot, screen, ("relationships", 0, "from"), "task_1")
        await fill(pilot, screen, ("relationships", 0, "to"), "goal_1")
        rel = field(screen, "relationships", 0, "rel")
        rel.query_one("Select").value = rel._choices().index("supports")
        await settle(pilot)
        args = builder.args
        assert args["project"]["name"] == "Garden"
        assert [(e["temp_id"], e["kind"], e["name"]) for e in args["entities"]] == [("task_1", "task", "Dig beds"), ("goal_1", "goal", "Grow food")]
        assert args["relationships"] == [{"from": "task_1", "to": "goal_1", "rel": "supports"}]
        assert builder.field_errors == []
        assert json.loads(screen.query_one(JsonEditor).text) == args
        assert screen.query_one(PayloadView).payload == {"op": "onto.project.create", "args": args}
        changed = [m for m in messages if isinstance(m, CallBuilder.Changed)]
        assert changed[-1].args == args and changed[-1].field_errors == []
        # remove the second entity again
        remove = [b for b in group(screen, "entities").query(".remove")][1]
        remove.press()
        await settle(pilot)
        assert [e["temp_id"] for e in builder.args["entities"]] == ["task_1"]


async def test_validation_is_live_and_inline(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.create")
        await settle(pilot)
        project = field(screen, "project_id")
        assert project.has_class("-missing")
        await fill(pilot, screen, ("project_id",), "not-a-uuid", keys=True)
        assert "is not a valid uuid" in project.error and project.has_class("-invalid")
        await fill(pilot, screen, ("due_at",), "tomorrow")
        assert "is not a valid date-time; expected a date and time such as 2026-03-01T09:00:00Z" in field(screen, "due_at").error
        builder = screen.query_one(CallBuilder)
        assert {e["path"] for e in builder.field_errors} >= {"/project_id", "/due_at", "/title"}
        project.query_one("Input").value = PROJECT
        field(screen, "due_at").query_one("Input").value = "2026-03-01T09:00:00Z"
        await fill(pilot, screen, ("title",), "Water")
        assert builder.field_errors == [] and project.error == ""


async def test_json_editor_and_form_stay_in_step(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move")
        await settle(pilot)
        editor = screen.query_one(JsonEditor)
        await fill(pilot, screen, ("project_id",), PROJECT)
        assert json.loads(editor.text) == {"project_id": PROJECT}
        area = editor.query_one("TextArea")
        area.text = json.dumps({"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": None, "position": 0})
        await settle(pilot)
        assert field(screen, "document_id").query_one("Input").value == API_SPEC
        assert field(screen, "new_parent_id").query_one("Input").value == "null"
        assert field(screen, "position").query_one("Input").value == "0"
        assert screen.query_one(CallBuilder).args["new_parent_id"] is None
        area.text = "{ broken"
        await settle(pilot)
        assert editor.has_class("-invalid") and screen.query_one(CallBuilder).args["document_id"] == API_SPEC


async def test_example_goes_in_with_one_key(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move")
        await settle(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)
        record = app.gateway.registry.get("onto.document.tree.move")
        assert screen.query_one(CallBuilder).args == record.examples[0]["args"]
        assert field(screen, "document_id").query_one("Input").value == API_SPEC
        await pilot.press("ctrl+t")
        await settle(pilot)
        assert screen.query_one(CallBuilder).args == record.examples[1]["args"]


async def test_ids_are_picked_from_the_workspace_by_name(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move")
        await settle(pilot)
        field(screen, "project_id").focus_input()
        await pilot.press("f7")
        await settle(pilot)
        picker = app.screen
        assert isinstance(picker, IdPickerScreen)
        labels = [str(o.prompt) for o in picker.query_one("#picker-choices")._options]
        assert any("Relay 2.0 Launch" in label for label in labels) and any("Tidewater" in label for label in labels)
        await type_text(pilot, "relay")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(CallBuilder).args["project_id"] == PROJECT
        field(screen, "new_parent_id").focus_input()
        await pilot.press("f7")
        await settle(pilot)
        assert app.screen.project_id == PROJECT  # documents of the chosen project
        await type_text(pilot, "engineering")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(CallBuilder).args["new_parent_id"] == ENGINEERING


async def test_copy_as_json_cli_and_python(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("onto.document.tree.move")
        await settle(pilot)
        await pilot.press("ctrl+t")
        await settle(pilot)
        await pilot.press("f9")
        await settle(pilot)
        assert isinstance(app.screen, CopyScreen)
        await pilot.press("c")
        await settle(pilot)
        assert app.clipboard.startswith("opgate exec onto.document.tree.move '{\"project_id\":") and app.clipboard.endswith("--dry-run")
        # Headless, no clipboard tool and no known terminal: the message must not claim a copy it cannot know of.
        notice = next(n for n in app._notifications if n.title.endswith("opgate exec command line"))
        assert notice.title.startswith("Copy: ") and "OSC 52" in notice.message and notice.severity == "warning"
        screen.copy_as("python")
        await settle(pilot)
        assert app.clipboard.startswith('gw.exec("onto.document.tree.move", {')
        screen.copy_as("json")
        await settle(pilot)
        assert json.loads(app.clipboard) == {"op": "onto.document.tree.move", "args": screen.call_args}


async def test_one_of_items_get_a_variant_select(tmp_path, closed_after):
    gw = closed_after(Gateway.from_catalogs([GITHUB], db_path=tmp_path / "g.db"))
    app = make_app(gw, "github")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("mcp.github.issue_assignee.update")
        await settle(pilot)
        group(screen, "assignees").query_one(".add").press()
        await settle(pilot)
        builder = screen.query_one(CallBuilder)
        assert builder.args["assignees"] == [""]
        variant = group(screen, "assignees", 0)
        variant.query_one(".variant-select").value = 1
        await settle(pilot)
        assert isinstance(builder.args["assignees"][0], dict)
        await fill(pilot, screen, ("assignees", 0, "login"), "octocat")
        assert builder.args["assignees"][0]["login"] == "octocat"


async def test_an_http_op_can_be_copied_as_curl(tmp_path, closed_after):
    from pathlib import Path

    document = Path(__file__).resolve().parents[1] / "http" / "loopback_openapi.json"
    gw = closed_after(Gateway.from_catalogs([f"items={document}"], db_path=tmp_path / "g.db"))
    app = make_app(gw, "items")
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        await screen.open_op("items.item.get")
        await settle(pilot)
        await screen.query_one(CallBuilder).set_args({"id": "7"})
        await settle(pilot)
        await pilot.press("f9")
        assert isinstance(app.screen, CopyScreen) and "curl" in app.screen.previews
        await pilot.press("u")
        await settle(pilot)
        assert app.clipboard == "curl -X GET https://items.invalid/items/7"
    gw.close()
