"""One snapshot per screen at 80x24 and 140x40, dark and light, and the explorer at 60x20, 80x24 and 120x36
(pinned: textual 8.2.8, pytest-textual-snapshot 1.1.0).

Frames are deterministic: a fresh database opened by a relative path (so the
header shows ``w.db``), envelopes and call-log entries with their trace ids,
latencies and timestamps replaced, no blinking cursors, no toasts.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pilot_helpers import API_SPEC, ENGINEERING, PROJECT, settle, type_text, wait_until

from opgate.core import Gateway
from opgate.tui import make_app
from opgate.tui.screens import (
    AllowWriteScreen, ConfirmRunScreen, ContextScreen, CopyScreen, ExportCallScreen, HistoryScreen, IdPickerScreen, KeysHelpScreen, ResetDemoScreen,
    RunReportScreen, SaveCallScreen,
)

MOVE = {"project_id": PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}
SIZES = {"narrow": (80, 24), "wide": (140, 40)}
THEMES = {"dark": "textual-dark", "light": "textual-light"}
FIXED = {"trace_id": "tr_0000000000000000", "latency_ms": 12.5, "state_digest": "0" * 64, "id_seed": "0" * 32, "updated_at": "2026-03-01T09:00:00Z", "created_at": "2026-03-01T09:00:00Z", "ts": "2026-03-01T09:00:00Z", "duration_ms": 12.5}


def steady(value: Any) -> Any:
    """The value with run-dependent fields (trace ids, times, digests) fixed."""
    if isinstance(value, dict):
        return {k: FIXED[k] if k in FIXED else steady(v) for k, v in value.items()}
    if isinstance(value, list):
        return [steady(v) for v in value]
    return value


async def quiet(pilot) -> None:
    await settle(pilot)
    for widget in pilot.app.screen.query("Input, TextArea"):
        widget.cursor_blink = False
    pilot.app.clear_notifications()
    await pilot.pause()


async def explorer_docs(pilot):
    pilot.app.screen.query_one("OpTree").reveal("onto.document.tree.move")


async def explorer_build(pilot):
    await pilot.app.screen.open_op("onto.document.tree.move", MOVE)


async def explorer_result(pilot):
    await pilot.app.screen.open_op("onto.document.tree.move", MOVE)
    await settle(pilot)
    envelope = pilot.app.gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    pilot.app.screen.show_result(steady(envelope))


async def jump(pilot):
    await pilot.press("slash")
    await type_text(pilot, "move document")


async def id_picker(pilot):
    await pilot.app.screen.open_op("onto.document.tree.move", {"project_id": PROJECT})
    await settle(pilot)
    pilot.app.push_screen(IdPickerScreen("document_id", PROJECT))


async def confirm_run(pilot):
    preview = pilot.app.gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    pilot.app.push_screen(ConfirmRunScreen("onto.document.tree.move", MOVE, steady(preview), summary="Move a document or folder under a new parent, or to the root"))


async def allow_write(pilot):
    pilot.app.push_screen(AllowWriteScreen("onto.document.tree.move"))


async def history(pilot):
    gateway = pilot.app.gateway
    gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    gateway.exec("onto.project.get", {"project_id": PROJECT})
    await pilot.press("ctrl+r")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, HistoryScreen) and len(pilot.app.screen.entries) == 2)
    await settle(pilot)
    screen = pilot.app.screen
    screen.show_entries(steady(copy.deepcopy(screen.entries)))
    await pilot.press("space")


async def keys_help(pilot):
    pilot.app.push_screen(KeysHelpScreen())


async def context(pilot):
    pilot.app.push_screen(ContextScreen(list(pilot.app.gateway.contexts.names), "all"))


async def copy_menu(pilot):
    await pilot.app.screen.open_op("onto.document.tree.move", MOVE)
    await settle(pilot)
    await pilot.press("f9")  # the texts are made on a worker's thread: the menu opens when they are ready
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, CopyScreen))


async def export_call(pilot):
    pilot.app.push_screen(ExportCallScreen("opgate-onto.document.tree.move-dry-run-20260301-090000.md", "the dry-run of onto.document.tree.move"))


async def reset_demo(pilot):
    pilot.app.push_screen(ResetDemoScreen("w.db"))


async def new_parent_picker(pilot):
    pilot.app.push_screen(IdPickerScreen("new_parent_id", PROJECT, moving=ENGINEERING, offer_root=True))


async def followed_entity(pilot):
    """The breadcrumb after following the project from a dry-run's entities: Esc goes back."""
    screen = pilot.app.screen
    await screen.open_op("onto.document.tree.move", MOVE)
    await settle(pilot)
    screen.show_result(steady(pilot.app.gateway.exec("onto.document.tree.move", MOVE, dry_run=True)))
    await settle(pilot)  # the person is on the Result tab when they follow an entity
    screen.remember_place(screen.query_one("#result-view").envelope)
    await screen.open_op("onto.project.get", {"project_id": PROJECT}, tab="result")
    screen.show_result(steady(pilot.app.gateway.exec("onto.project.get", {"project_id": PROJECT})))


async def create_diff(pilot):
    """A create's dry-run: every field of the new row, its project named."""
    args = {"project_id": PROJECT, "title": "Write the press kit", "priority": 2}
    await pilot.app.screen.open_op("onto.task.create", args)
    await settle(pilot)
    envelope = pilot.app.gateway.exec("onto.task.create", args, dry_run=True, id_seed="snapshot-seed-0001")
    pilot.app.screen.show_result(steady(envelope))


async def collections(pilot):
    await pilot.press("ctrl+o")  # only the shipped demo: the test's folder has no collections
    await settle(pilot)
    await pilot.press("down", "down", "down")


async def run_report(pilot):
    await pilot.press("ctrl+o")
    await settle(pilot)
    await pilot.press("f5")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, RunReportScreen))


async def save_call(pilot):
    screen = pilot.app.screen
    await screen.open_op("onto.document.tree.move", MOVE)
    await settle(pilot)
    envelope = pilot.app.gateway.exec("onto.document.tree.move", MOVE, dry_run=True)
    screen.query_one("ResultView").show(steady(envelope))  # as F5 shows it, without the toast that could race the frame
    screen.action_show_tab("result")
    screen.last_call = ("onto.document.tree.move", MOVE, envelope)  # what F5 leaves for ctrl+s to record
    await settle(pilot, delay=0.3)  # the tab underline's animation ends before the dialog covers it
    await pilot.press("ctrl+s")
    await wait_until(pilot, lambda: isinstance(pilot.app.screen, SaveCallScreen))


SCREENS = {f.__name__: f for f in (
    explorer_docs, explorer_build, explorer_result, jump, id_picker, confirm_run, allow_write, history, keys_help, context, copy_menu,
    export_call, reset_demo, new_parent_picker, followed_entity, create_diff, collections, run_report, save_call,
)}
# The main screen where people spend their time, at the three sizes the explorer must handle.
EXPLORER_SIZES = {"60x20": (60, 20), "80x24": (80, 24), "120x36": (120, 36)}


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("screen", SCREENS)
def test_screen(snap_compare, tmp_path, monkeypatch, screen, size, theme):
    monkeypatch.chdir(tmp_path)
    gateway = Gateway(db_path="w.db")
    app = make_app(gateway, "built-in catalogue")

    async def run_before(pilot) -> None:
        pilot.app.theme = THEMES[theme]
        await settle(pilot)
        await SCREENS[screen](pilot)
        await quiet(pilot)

    try:
        assert snap_compare(app, terminal_size=SIZES[size], run_before=run_before)
    finally:
        gateway.close()


@pytest.mark.parametrize("size", EXPLORER_SIZES)
@pytest.mark.parametrize("screen", ["explorer_build", "explorer_result", "followed_entity"])
def test_explorer_sizes(snap_compare, tmp_path, monkeypatch, screen, size):
    monkeypatch.chdir(tmp_path)
    gateway = Gateway(db_path="w.db")
    app = make_app(gateway, "built-in catalogue")

    async def run_before(pilot) -> None:
        await settle(pilot)
        await SCREENS[screen](pilot)
        await quiet(pilot)

    try:
        assert snap_compare(app, terminal_size=EXPLORER_SIZES[size], run_before=run_before)
    finally:
        gateway.close()
