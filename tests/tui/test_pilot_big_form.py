"""A form too big to mount at once: Twilio's 205-argument op mounts a screenful first and the rest in batches.

Nothing a person sees or sends may depend on how much is mounted: every
argument is reachable by Tab and by scrolling, values typed into late fields
are in the call, errors land on their own field once it is mounted, and a
dry-run from a half-mounted form holds every argument.
"""

from __future__ import annotations

import asyncio
import json

import pytest
from pilot_helpers import PROJECT, TWILIO, settle, type_text

from opgate.core import Gateway
from opgate.tui import make_app
from opgate.tui.widgets import CallBuilder, CallForm, FormField, JsonEditor, PayloadView, _form_batches, call_form

pytestmark = pytest.mark.anyio

WIDE = "twilio.api_v2010.siprec.create"
WIDTH = 205
ACCOUNT = "AC" + "a" * 32


@pytest.fixture
def twilio(tmp_path):
    gw = Gateway.from_catalogs([TWILIO], db_path=tmp_path / "t.db")
    yield gw
    gw.close()


def mounted(form: CallForm) -> list[tuple]:
    return [f.slot.path for f in form.query(FormField)]


async def calm(pilot, timeout: float = 60.0) -> None:
    """``settle`` for a held form: every worker done but the one holding the batches back."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    for _ in range(3):
        while any(not w.is_finished and w.group != "form-mount" for w in pilot.app.workers):
            assert loop.time() < deadline, f"workers still running: {list(pilot.app.workers)}"
            await pilot.pause(0.01)
        await pilot.pause(0.05)


async def mounted_whole(pilot) -> None:
    """Every batch mounted (slow on a loaded machine: 205 fields are about 1,000 widgets)."""
    await settle(pilot, timeout=300)


def hold_batches(monkeypatch) -> None:
    """As if the person kept typing: the batches after the first wait (Tab, scrolling and focus still mount)."""
    monkeypatch.setattr(_form_batches, "TYPING_PAUSE", 3600.0)


async def test_first_batch_then_every_argument_in_order(twilio):
    app = make_app(twilio, str(TWILIO))
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op(WIDE)
        form = app.screen.query_one(CallForm)
        first = mounted(form)
        assert 16 <= len(first) < WIDTH and not form.fully_mounted
        assert form.query(".form-more")  # says more are coming
        await pilot.pause()
        assert app.focused is form.query(FormField).first().query_one("Input")  # AccountSid: required and empty
        await mounted_whole(pilot)
        assert form.fully_mounted and not form.query(".form-more")
        paths = mounted(form)
        assert len(paths) == WIDTH and paths[: len(first)] == first
        assert paths == [("AccountSid",), ("CallSid",), *[(name,) for name in twilio.registry.get(WIDE).parameters["properties"] if name not in ("AccountSid", "CallSid")]]
        # Tab walks every input in the order shown.
        inputs = [f.query_one("Input, Select") for f in form.query(FormField)]
        chain = [w for w in app.screen.focus_chain if w in set(inputs)]
        assert chain == inputs


async def test_tab_and_scroll_reach_fields_not_mounted_yet(twilio, monkeypatch):
    hold_batches(monkeypatch)
    app = make_app(twilio, str(TWILIO))
    async with app.run_test(size=(120, 36)) as pilot:
        await app.screen.open_op(WIDE)
        await calm(pilot)
        form = app.screen.query_one(CallForm)
        before = len(mounted(form))
        assert before < WIDTH  # held: nothing more came on its own
        form.query(FormField).last().focus_input()
        await pilot.press("tab")  # onto "more fields": the next batch mounts and its first field takes the focus
        await calm(pilot)
        after = mounted(form)
        assert len(after) > before
        fields = list(form.query(FormField))
        focused = next(i for i, f in enumerate(fields) if app.focused in f.query("Input, Select"))
        assert focused == before, (focused, before, len(after))
        form.scroll_end(animate=False)
        await calm(pilot)
        assert len(mounted(form)) > len(after)
        for _ in range(40):
            if form.fully_mounted:
                break
            form.scroll_end(animate=False)
            await calm(pilot)
        assert form.fully_mounted and len(mounted(form)) == WIDTH


async def test_typed_into_a_late_field_is_in_the_call(twilio):
    app = make_app(twilio, str(TWILIO))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op(WIDE)
        await mounted_whole(pilot)
        last = screen.query_one(CallForm).query(FormField).last()
        assert last.slot.path == ("Parameter99.Value",)
        last.focus_input()
        await type_text(pilot, "late value")
        assert screen.call_args["Parameter99.Value"] == "late value"  # before the check after the pause
        await settle(pilot)
        builder = screen.query_one(CallBuilder)
        assert builder.args["Parameter99.Value"] == "late value"
        assert json.loads(screen.query_one(JsonEditor).text)["Parameter99.Value"] == "late value"
        assert screen.query_one(PayloadView).payload == {"op": WIDE, "args": builder.args}


async def test_errors_land_on_their_field_mounted_before_or_after(twilio, monkeypatch):
    hold_batches(monkeypatch)
    app = make_app(twilio, str(TWILIO))
    async with app.run_test(size=(120, 36)) as pilot:
        screen = app.screen
        await screen.open_op(WIDE)
        await calm(pilot)
        form = screen.query_one(CallForm)
        assert ("Parameter99.Value",) not in mounted(form)
        await screen.query_one(CallBuilder).set_args({"AccountSid": "nope", "Parameter99.Value": 5})
        await calm(pilot)
        errors = {e["path"] for e in screen.query_one(CallBuilder).field_errors}
        assert {"/AccountSid", "/CallSid", "/Parameter99.Value"} <= errors
        fields = {f.slot.path: f for f in form.query(FormField)}
        assert "does not have the expected shape" in fields[("AccountSid",)].error and fields[("AccountSid",)].has_class("-invalid")
        assert fields[("CallSid",)].has_class("-missing")
        assert form.focus_path(("Parameter99.Value",))  # mounts up to it, then focuses it
        await calm(pilot)
        late = next(f for f in form.query(FormField) if f.slot.path == ("Parameter99.Value",))
        assert app.focused is late.query_one("Input")
        assert "5 is a whole number; expected text" in late.error and late.has_class("-invalid")
        assert late.query_one(".field-error").render().plain == late.error


async def test_dry_run_from_a_half_mounted_form_sends_every_argument(app, gateway, monkeypatch):
    hold_batches(monkeypatch)
    monkeypatch.setattr(call_form, "MIN_FIRST_WEIGHT", 1)  # a built-in op (runnable here), cut to one field mounted
    done = []
    async with app.run_test(size=(120, 36), message_hook=done.append) as pilot:
        screen = app.screen
        await screen.open_op("onto.task.create", {"title": "From the JSON", "priority": 2, "props": {"late": True}})
        await calm(pilot)
        form = screen.query_one(CallForm)
        assert mounted(form) == [("project_id",)] and not form.fully_mounted
        form.focus_first_needed()
        await type_text(pilot, PROJECT)
        await pilot.press("f5")  # at once: the check after the pause has not run yet
        await calm(pilot)
        calls = [m for m in done if type(m).__name__ == "CallDone"]
        assert calls and calls[-1].args == {"project_id": PROJECT, "title": "From the JSON", "priority": 2, "props": {"late": True}}
        envelope = calls[-1].envelope
        assert envelope["ok"] and envelope["meta"]["dry_run"], envelope
        assert "From the JSON" in json.dumps(envelope["result"]) and '"late": true' in json.dumps(envelope["result"])
        assert not form.fully_mounted  # nothing had to be mounted to send it


async def test_a_form_opened_from_the_finder_starts_at_its_top_with_the_first_fields_head(twilio):
    """Focus went to the first required input in the frame the form was mounted in, and scrolled the form
    past that field's head: Twilio's call.create opened one line down, its AccountSid head out of sight."""
    app = make_app(twilio, "twilio")
    async with app.run_test(size=(200, 50)) as pilot:
        await pilot.press("ctrl+f")
        await settle(pilot)
        await type_text(pilot, "call create")
        await settle(pilot)
        await pilot.press("enter")
        await settle(pilot)
        form = app.screen.query_one(CallForm)
        field = next(f for f in form.query(FormField) if f.slot.label == "AccountSid")
        assert field.query_one("Input").has_focus
        assert form.scroll_y == 0
        assert field.region.y >= form.region.y, "the field's head is on screen"


async def test_focusing_a_field_far_down_shows_its_head_too(twilio):
    app = make_app(twilio, "twilio")
    async with app.run_test(size=(120, 30)) as pilot:
        await app.screen.open_op("twilio.api_v2010.call.create", {})
        await settle(pilot)
        form = app.screen.query_one(CallForm)
        assert form.focus_path(("Timeout",))
        await settle(pilot)
        field = next(f for f in form.query(FormField) if f.slot.label == "Timeout")
        assert field.query_one("Input").has_focus and form.scroll_y > 0
        assert form.region.y <= field.region.y and field.region.bottom <= form.region.bottom, "head and input both in view"
