"""Confirm a real run: what will change (the dry-run's diff) before anything is written."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from opgate.core.diff_text import field_label, field_value

from .._palette import Palette
from .._plain import data_text, shown
from .._render_http import render_preview
from .._render_result import touched_entities
from ..widgets import DiffView


class ConfirmRunScreen(ModalScreen[bool]):
    """Dismisses with True to run for real, False to leave the store as it is."""

    BINDINGS: ClassVar = [
        Binding("y", "answer(True)", "Run it", tooltip="Write these changes", id="opgate.confirm.yes"),
        Binding("n,escape", "answer(False)", "Cancel", tooltip="Write nothing", id="opgate.confirm.no"),
    ]

    def __init__(self, op: str, args: dict[str, Any], preview: dict[str, Any], *, summary: str = ""):
        super().__init__()
        self.op = op
        self.args = args
        self.preview = preview
        self.summary = summary

    def compose(self) -> ComposeResult:
        meta = self.preview.get("meta") or {}
        with Vertical(id="confirm-box", classes="modal-box"):
            yield Label(Text.assemble(("Run ", "bold"), (shown(self.op), "bold"), (" for real?", "bold")), id="confirm-title")
            if self.summary:
                yield Label(data_text(self.summary, style="italic"))
            with VerticalScroll(id="confirm-body"):
                if self.args:
                    yield Label("[b]Arguments[/b]")
                    yield Static(self._arguments(meta.get("names") or {}), id="confirm-args")
                else:
                    # A bare heading over nothing reads as if the arguments failed to show.
                    yield Label("[b]Arguments[/b] none", id="confirm-args")
                if "preview" in meta:
                    # An upstream that cannot rehearse: show exactly what will be sent instead of a diff.
                    yield Label("[b]What will be sent[/b] (nothing was sent yet)")
                    yield Static(render_preview(meta["preview"], Palette.of(self.app)), id="confirm-preview")
                else:
                    yield Label("[b]What will change[/b] (from a dry-run just now)")
                    diff = DiffView(id="confirm-diff")
                    diff.names = {**{i: n for i, _, n in touched_entities(self.preview) if n}, **(meta.get("names") or {})}
                    diff.diff = meta.get("diff") or {}
                    yield diff
                if not self.preview.get("ok", True):
                    error = self.preview.get("error") or {}
                    yield Static(data_text(f"The dry-run failed: {error.get('code')}: {error.get('message')}", style="bold red"))
            with Horizontal(id="confirm-buttons"):
                yield Button("Run it (y)", variant="error", id="confirm-yes")
                yield Button("Cancel (n)", variant="primary", id="confirm-no")

    def _arguments(self, names: dict[str, Any]) -> Text:
        """One line per argument, ids with their names (``new_parent: "Engineering" 5000…0001``)."""
        palette = Palette.of(self.app)
        styles = {"name": "italic", "after": palette.success, "": ""}
        text = Text()
        for key, value in self.args.items():
            if text:
                text.append("\n")
            text.append(f"{shown(field_label(key))}: ", style="bold")
            for part, role in field_value(key, value, names, "after"):
                text.append(shown(part), style=styles.get(role, ""))
        return text

    def on_mount(self) -> None:
        # Toasts from before the question (a dry-run's "ok") would sit on its buttons at 80x24.
        self.app.clear_notifications()
        self.query_one("#confirm-no", Button).focus()

    @on(Button.Pressed, "#confirm-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#confirm-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
