"""Run: dry-runs with diffs, confirmed real runs, writes off, the approver modal, errors, entity links."""

from __future__ import annotations

import io
import threading

import pytest
from pilot_helpers import API_SPEC, CATALOGS, ENGINEERING, PROJECT, parent_of, settle, wait_until

from rich.console import Console

from opgate.core import Gateway
from opgate.core.config import read_config
from opgate.tui import make_app
from opgate.tui.screens import AllowWriteScreen, ConfirmRunScreen, CopyScreen, ExplorerScreen
from opgate.tui.widgets import CallBuilder, DiffView, EntityLinks, ResultView

pytestmark = pytest.mark.anyio
MOVE = {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}
TASK = "20000000-0000-4000-8000-000000000001"
PETSTORE = CATALOGS.parent / "openapi" / "petstore_expanded.yaml"


def console_text(renderable) -> str:
    console = Console(file=io.StringIO(), width=110, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


async def open_call(pilot, op, args):
    screen = pilot.app.screen
    await screen.open_op(op, args)
    await settle(pilot)
    return screen


async def test_dry_run_shows_the_diff_and_writes_nothing(app, gateway):
    messages = []
    async with app.run_test(size=(120, 40), message_hook=messages.append) as pilot:
        screen = await open_call(pilot, "onto.document.tree.move", MOVE)
        await pilot.press("f5")
        await settle(pilot)
        done = [m for m in messages if isinstance(m, ExplorerScreen.CallDone)]
        assert done[-1].envelope["meta"]["dry_run"] is True and done[-1].purpose == "show"
        result = screen.query_one(ResultView)
        assert result.envelope["ok"] and screen.query_one("#tabs").active == "result"
        diff = screen.query_one(DiffView).diff
        assert diff["updated"][0]["fields"]["parent_id"] == {"before": None, "after": ENGINEERING}
        assert parent_of(gateway, API_SPEC) is None


async def test_real_run_needs_allow_write_and_confirmation(app, gateway):
    async with app.run_test(size=(120, 40)) as pilot:
        await open_call(pilot, "onto.document.tree.move", MOVE)
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, AllowWriteScreen)
        await pilot.press("w")
        await settle(pilot)
        assert gateway.allow_write and app.allow_write
        confirm = app.screen
        assert isinstance(confirm, ConfirmRunScreen)
        assert confirm.query_one(DiffView).diff["updated"][0]["id"] == API_SPEC
        assert parent_of(gateway, API_SPEC) is None  # nothing yet
        await pilot.press("y")
        await settle(pilot)
        assert isinstance(app.screen, ExplorerScreen)
        envelope = app.screen.query_one(ResultView).envelope
        assert envelope["ok"] and not envelope["meta"].get("dry_run")
        assert parent_of(gateway, API_SPEC) == ENGINEERING


async def test_cancelling_either_prompt_writes_nothing(app, gateway):
    async with app.run_test(size=(120, 40)) as pilot:
        await open_call(pilot, "onto.document.tree.move", MOVE)
        await pilot.press("f6")
        await settle(pilot)
        await pilot.press("n")
        await settle(pilot)
        assert not gateway.allow_write and isinstance(app.screen, ExplorerScreen)
        await pilot.press("f8")
        await settle(pilot)
        assert not gateway.allow_write, "the writes key asks before turning writes on"
        await pilot.press("w")
        await settle(pilot)
        assert gateway.allow_write
        await pilot.press("f6")
        await settle(pilot)
        assert isinstance(app.screen, ConfirmRunScreen)
        await pilot.press("escape")
        await settle(pilot)
        assert parent_of(gateway, API_SPEC) is None


async def test_ops_that_need_confirmation_ask_through_the_approver(app, gateway):
    gateway.allow_write = True
    async with app.run_test(size=(120, 40)) as pilot:
        await open_call(pilot, "onto.task.delete", {"task_id": TASK})
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))
        worker = next(w for w in app.workers if w.name == "exec")
        assert worker.is_running  # the exec thread waits for the person
        assert app.screen.query_one(DiffView).diff["deleted"][0]["id"] == TASK
        await pilot.press("y")
        await settle(pilot)
        envelope = app.screen.query_one(ResultView).envelope
        assert envelope["ok"], envelope
        assert gateway.exec("onto.task.get", {"task_id": TASK})["error"]["code"] == "NOT_FOUND"


async def test_refusing_the_approver_keeps_the_task(app, gateway):
    gateway.allow_write = True
    async with app.run_test(size=(120, 40)) as pilot:
        await open_call(pilot, "onto.task.delete", {"task_id": TASK})
        await pilot.press("f6")
        await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))
        await pilot.press("n")
        await settle(pilot)
        envelope = app.screen.query_one(ResultView).envelope
        assert envelope["error"]["code"] == "PERMISSION_DENIED"
        assert gateway.exec("onto.task.get", {"task_id": TASK})["ok"]


async def test_errors_are_readable_with_the_help_pointer(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_call(pilot, "onto.document.tree.move", {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": API_SPEC})
        await pilot.press("f5")
        await settle(pilot)
        envelope = screen.query_one(ResultView).envelope
        assert envelope["error"]["code"] == "CONFLICT"
        console = Console(width=200, record=True, file=io.StringIO())
        console.print(screen.query_one("#result-error").content)
        shown = console.export_text()
        assert "help: onto.document.tree.move" in shown
        assert any(n.severity == "error" for n in app._notifications)


async def test_field_errors_from_exec_show_inline(app):
    async with app.run_test(size=(120, 40)) as pilot:
        screen = await open_call(pilot, "onto.task.list", {"project_id": "nope", "limit": 999})
        await pilot.press("f6")
        await settle(pilot)
        assert screen.query_one(ResultView).envelope["error"]["code"] == "VALIDATION_ERROR"
        fields = {f.slot.path: f.error for f in screen.query("FormField")}
        assert "uuid" in fields[("project_id",)] and "999" in fields[("limit",)]


async def dry_run_the_move_and_highlight_the_project(pilot) -> list[str]:
    """The Result's entity list after a dry-run of MOVE, focused, with the project highlighted; its ids."""
    screen = await open_call(pilot, "onto.document.tree.move", MOVE)
    await pilot.press("f5")
    await settle(pilot)
    links = screen.query_one(EntityLinks)
    ids = [links.get_option_at_index(i).id for i in range(links.option_count)]
    links.focus()
    links.highlighted = ids.index(PROJECT)
    return ids


async def test_a_read_runs_directly_and_its_entities_open(app):
    async with app.run_test(size=(120, 40)) as pilot:
        ids = await dry_run_the_move_and_highlight_the_project(pilot)
        assert ids[0] == API_SPEC and PROJECT in ids
        screen = app.screen
        await pilot.press("enter")
        await settle(pilot)
        assert screen.query_one(CallBuilder).record.op == "onto.project.get"
        envelope = screen.query_one(ResultView).envelope
        assert envelope["ok"] and envelope["result"]["project"]["name"] == "Relay 2.0 Launch"


async def test_c_copies_a_touched_entitys_id_and_opens_nothing(app):
    async with app.run_test(size=(120, 40)) as pilot:
        await dry_run_the_move_and_highlight_the_project(pilot)
        screen = app.screen
        await pilot.press("c")
        await settle(pilot)
        await wait_until(pilot, lambda: any("an id from the answer" in n.title for n in app._notifications))
        note = next(n for n in app._notifications if "an id from the answer" in n.title)
        assert note.message.endswith("\n" + PROJECT), note.message
        assert screen.query_one(CallBuilder).record.op == "onto.document.tree.move"


async def test_a_failed_worker_becomes_a_visible_error(app):
    async with app.run_test(size=(120, 40)) as pilot:
        def broken() -> None:
            raise RuntimeError("the disk is on fire")

        app.screen.run_worker(broken, thread=True, exit_on_error=False, name="exec")
        await settle(pilot)
        errors = [n for n in app._notifications if n.severity == "error"]
        assert errors and "exec failed: RuntimeError: the disk is on fire" in errors[-1].message
        assert app.is_running


async def test_keys_can_be_remapped_by_id(gateway):
    from opgate.tui import make_app

    app = make_app(gateway, keymap={"opgate.dry_run": "f10"})
    async with app.run_test(size=(120, 40)) as pilot:
        await open_call(pilot, "onto.document.tree.move", MOVE)
        await pilot.press("f10")
        await settle(pilot)
        assert app.screen.query_one(ResultView).envelope["meta"]["dry_run"]


async def test_the_confirmation_of_a_call_without_arguments_says_so(app):
    preview = {"ok": True, "data": {}, "meta": {"dry_run": True, "diff": {"created": [], "updated": [], "deleted": []}}}
    async with app.run_test(size=(80, 24)) as pilot:
        pilot.app.push_screen(ConfirmRunScreen("onto.demo.noop", {}, preview))
        await settle(pilot)
        shown = str(pilot.app.screen.query_one("#confirm-args").render())
        assert shown == "Arguments none"


async def test_the_confirmation_shows_an_http_request_as_the_result_does(tmp_path):
    """The Result showed a preview as a request (POST url, headers, the body as JSON); the run confirmation
    showed the same preview as raw JSON, its body one escaped string ("{\\"name\\":\\"Rex\\"..."). Nothing is sent:
    the upstream's address has no server, and a preview never calls it."""
    config = tmp_path / "opgate.toml"
    config.write_text(f'[upstreams.pets]\nopenapi = "{PETSTORE}"\nbase_url = "http://127.0.0.1:9"\n', encoding="utf-8")
    gateway = Gateway.from_catalogs([], config=read_config(config), db_path=tmp_path / "w.db", allow_write=True, call_log=False)
    app = make_app(gateway, "opgate.toml")
    try:
        async with app.run_test(size=(120, 45)) as pilot:
            await open_call(pilot, "pets.pet.add", {"body": {"name": "Rex", "tag": "dog"}})
            await pilot.press("f5")
            await settle(pilot)
            result = console_text(app.screen.query_one("#result-http").content)
            await pilot.press("f6")
            await wait_until(pilot, lambda: isinstance(app.screen, ConfirmRunScreen))
            await settle(pilot)
            confirm = console_text(app.screen.query_one("#confirm-preview").content)
            assert confirm == result
            assert "POST http://127.0.0.1:9/pets" in confirm and '"name": "Rex",' in confirm and '\\"' not in confirm
            await pilot.press("n")
            await settle(pilot)
    finally:
        gateway.close()


async def test_the_copy_menu_builds_its_texts_off_the_ui_thread(tmp_path):
    """F9 asked the gateway for the curl text's preview on the UI thread (a dry-run of the HTTP op: it reads the
    op's document and builds the request), so the explorer froze while the menu was made; the palette's
    "Copy as curl" too."""
    config = tmp_path / "opgate.toml"
    config.write_text(f'[upstreams.pets]\nopenapi = "{PETSTORE}"\nbase_url = "http://127.0.0.1:9"\n', encoding="utf-8")
    gateway = Gateway.from_catalogs([], config=read_config(config), db_path=tmp_path / "w.db", call_log=False)
    app = make_app(gateway, "opgate.toml")
    threads: list[bool] = []
    exec_ = gateway.exec

    def watched_exec(*args, **options):
        threads.append(threading.current_thread() is threading.main_thread())
        return exec_(*args, **options)

    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await open_call(pilot, "pets.pet.add", {"body": {"name": "Rex", "tag": "dog"}})
            gateway.exec = watched_exec
            await pilot.press("f9")
            await wait_until(pilot, lambda: isinstance(app.screen, CopyScreen))
            assert app.screen.previews["curl"].startswith("curl -X POST http://127.0.0.1:9/pets")
            await pilot.press("u")
            await settle(pilot)
            assert app.clipboard.startswith("curl -X POST")
            app.screen.copy_as("curl")
            await settle(pilot)
            assert threads and not any(threads), "every preview was asked for on a worker's thread"
    finally:
        gateway.close()
