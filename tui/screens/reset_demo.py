"""Confirm replacing what the workspace holds with the demo (the palette's "Reset demo workspace")."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Label


class ResetDemoScreen(ModalScreen[bool]):
    """Dismisses with True to reset; Cancel has the focus."""

    BINDINGS: ClassVar = [
        Binding("r", "answer(True)", "Reset", tooltip="Replace the workspace with the demo", id="opgate.reset.yes"),
        Binding("n,escape", "answer(False)", "Cancel", tooltip="Keep the workspace as it is", id="opgate.reset.no"),
    ]

    def __init__(self, location: str, *, scratch: bool = False):
        super().__init__()
        self.location = location
        self.scratch = scratch

    def compose(self) -> ComposeResult:
        with Vertical(id="reset-box", classes="modal-box"):
            yield Label("[b]Reset the demo workspace?[/b]")
            where = "this scratch copy (deleted when the explorer closes)" if self.scratch else self.location
            yield Label(Text(f"Everything in {where} is replaced by the demo projects, tasks and documents; "
                             "writes made since are lost. Only an opgate workspace can be reset."))
            with Horizontal(id="reset-buttons"):
                yield Button("Reset (r)", variant="error", id="reset-yes")
                yield Button("Cancel (n)", variant="primary", id="reset-no")

    def on_mount(self) -> None:
        self.query_one("#reset-no", Button).focus()

    @on(Button.Pressed, "#reset-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#reset-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
