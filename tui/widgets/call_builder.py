"""Builds one call: the form, the raw JSON editor, live validation and the exact exec payload."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.widgets import Static

from .._palette import Palette
from .._plain import shown
from .._render_help import badges_text
from ..forms import Path, edit, field_paths, initial_args, place_errors
from ..forms import build_spec as build_form_spec
from ..forms import sections_for
from .call_form import TYPING_PAUSE, CallForm
from .json_editor import JsonEditor
from .payload_view import PayloadView

_validator: Any = None


def validator() -> Any:
    """The validator exec uses, with its per-op cache; made on first use.

    Importing it pulls in jsonschema and its format checkers, which the
    explorer's first frame does not need (the explorer warms it up in a
    thread once that frame is drawn).
    """
    global _validator
    if _validator is None:
        from opgate.core.exec import ArgumentValidator

        _validator = ArgumentValidator()
    return _validator

# Typing in the form checks the arguments once the keys pause (each key only echoes). The pause is the
# form's own (its batches wait for it too): at 0.15 s a check landed between the keys of steady typing,
# and its frame (the whole form laid out again) delayed the next key's echo.
CHECK_DELAY = TYPING_PAUSE


class CallBuilder(Vertical):
    """The parent opens an op (:meth:`open`) and may set values (:meth:`set_args`, :meth:`set_field`)."""

    DEFAULT_CSS = """
    CallBuilder { height: 1fr; }
    CallBuilder > #builder-title { height: auto; padding: 0 1; }
    CallBuilder > #builder-body { height: 1fr; }
    CallBuilder > #builder-check { height: auto; max-height: 4; padding: 0 1; }
    """

    @dataclass
    class Changed(Message):
        """The call being built: its op, its arguments and whether they validate."""

        op: str
        args: dict[str, Any]
        field_errors: list[dict[str, Any]]

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.record: Any = None
        self.args: dict[str, Any] = {}
        self.field_errors: list[dict[str, Any]] = []
        self.example_index = -1
        self._check_text = Text()

    def compose(self) -> ComposeResult:
        yield Static(Text("No op yet: pick one in the tree and press Enter, or press / to find one.", style="dim"), id="builder-title")
        with Horizontal(id="builder-body"):
            yield CallForm(id="form")
            yield JsonEditor(id="json")
        yield Static("", id="builder-check")
        yield PayloadView(id="payload")

    # -- parent API ----------------------------------------------------------------------------

    async def open(self, record: Any, args: dict[str, Any] | None = None) -> None:
        """Start building a call to ``record``'s op (with ``args``, or its defaults)."""
        self.record = record
        self.example_index = -1
        spec = build_form_spec(record.parameters)
        self.args = dict(args) if args is not None else initial_args(spec)
        title = Text.assemble((shown(record.op), "bold"), "  ", badges_text(record.badges, Palette.of(self.app)), (shown(record.summary), "italic"))
        if not record.runnable:
            title.append(f"\nBrowse only (F5 and F6 are off): {record.binding.why_not_runnable}.", style=Palette.of(self.app).warning)
        self.query_one("#builder-title", Static).update(title)
        form = self.query_one(CallForm)
        await form.load(spec, self.args, sections_for(spec, record.arguments_in))
        form.scroll_home(animate=False)
        self._sync(from_json=False)

    async def set_args(self, args: dict[str, Any]) -> None:
        """Replace every argument (an example, a call from history)."""
        self.args = dict(args)
        await self.query_one(CallForm).set_args(self.args)
        self._sync(from_json=False)

    async def set_field(self, path: Path, value: Any) -> None:
        """Set one value (an id picked from the workspace)."""
        form = self.query_one(CallForm)
        if form.spec is None:
            return
        self.args = edit(self.args, form.spec, path, value)
        await form.set_args(self.args)
        self._sync(from_json=False)

    def show_names(self, names: dict[str, str]) -> None:
        """The names of entities the parent knows (``{id: name}``): the form shows them beside the ids."""
        self.query_one(CallForm).show_names(names)

    @property
    def has_problems(self) -> bool:
        """Some input holds text that is no value (a word in a number field, broken JSON)."""
        return bool(self.query_one(CallForm).problems)

    def focus_first_field(self) -> None:
        self.query_one(CallForm).focus_path(())

    def focus_first_needed(self) -> None:
        """The first required field still empty (else the first field), cursor at the end, nothing selected."""
        self.query_one(CallForm).focus_first_needed()

    # -- keeping the views in step ---------------------------------------------------------------

    def _sync(self, *, from_json: bool) -> None:
        """Every view and the check at once (an op opened, arguments set from elsewhere)."""
        if self.record is None:
            return
        self.workers.cancel_group(self, "builder-check")
        if not from_json:
            self.query_one(JsonEditor).show(self.args)
        self._show_views(*validator().check(self.record, self.args))

    def _show_views(self, errors: list[dict[str, Any]], headline: str) -> None:
        assert self.record is not None
        self.query_one(PayloadView).payload = {"op": self.record.op, "args": self.args}
        self._validate(errors, headline)
        self.post_message(self.Changed(self.record.op, self.args, self.field_errors))

    @work(exclusive=True, group="builder-check", exit_on_error=False, name="check the arguments")
    async def _check_when_idle(self) -> None:
        """After a pause in typing: the JSON, the payload and the check (the validator runs in a thread)."""
        await asyncio.sleep(CHECK_DELAY)
        record, args = self.record, self.args
        errors, headline = await asyncio.to_thread(validator().check, record, args)
        if record is not self.record or args is not self.args:
            return  # the arguments moved on meanwhile; whatever moved them checks again
        self.query_one(JsonEditor).show(args)
        self._show_views(errors, headline)

    def _validate(self, errors: list[dict[str, Any]], headline: str) -> None:
        form = self.query_one(CallForm)
        self.field_errors = errors
        placed = place_errors(errors, field_paths(form.slot) if form.slot else set())
        form.show_errors(placed)
        palette = Palette.of(self.app)
        record = self.record
        if record is not None and not record.runnable:
            # First, where a small terminal still shows it: filling the fields will not make F5 and F6 work.
            text = Text(f"browse only, F5 and F6 are off: {record.binding.why_not_runnable}\n", style=palette.warning)
        elif not errors and not form.problems:
            self._check(Text("✓ valid: F5 dry-runs, F6 runs", style=palette.success))
            return
        else:
            text = Text()
        missing = [e for e in errors if e.get("code") == "missing_required"]
        if form.problems:
            text.append("fix the marked fields; ", style=palette.error)
        if errors and len(missing) == len(errors):
            text.append("still needed: " + ", ".join(e["field"].removeprefix("args.") for e in missing), style=palette.warning)
        elif errors:
            text.append(f"✗ {headline}", style=palette.error)
        for line in placed.unplaced:
            text.append(f"\n  {line}", style=palette.error)
        text.rstrip()
        self._check(text)

    def _check(self, text: Text) -> None:
        if text != self._check_text:
            self._check_text = text
            self.query_one("#builder-check", Static).update(text)

    @on(CallForm.Changed)
    def _form_changed(self, event: CallForm.Changed) -> None:
        """A key in the form: the call's arguments go up now, the rest waits for a pause (see ``_check_when_idle``)."""
        event.stop()
        self.args = event.args
        if self.record is None:
            return
        self.post_message(self.Changed(self.record.op, self.args, self.field_errors))
        self._check_when_idle()

    @on(JsonEditor.Edited)
    async def _json_edited(self, event: JsonEditor.Edited) -> None:
        event.stop()
        if self.record is None or event.args == self.args:
            return
        self.args = event.args
        await self.query_one(CallForm).set_args(self.args)
        self._sync(from_json=True)
