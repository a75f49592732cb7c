"""Writes are off: say so, and offer to turn them on for this session."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from rich.text import Text
from textual.widgets import Button, Label


class AllowWriteScreen(ModalScreen[bool]):
    """Dismisses with True when the person turns writes on."""

    BINDINGS: ClassVar = [
        Binding("w", "answer(True)", "Allow writes", tooltip="Turn allow-write on and go on", id="opgate.allow.yes"),
        Binding("n,escape", "answer(False)", "Stay read-only", tooltip="Keep writes off", id="opgate.allow.no"),
    ]

    def __init__(self, op: str | None):
        """``op`` is the write that asked; None when the person pressed the writes key."""
        super().__init__()
        self.op = op

    def compose(self) -> ComposeResult:
        with Vertical(id="allow-box", classes="modal-box"):
            yield Label("[b]Writes are off[/b] (read-only mode)")
            if self.op:
                yield Label(Text(f"{self.op} writes to the workspace. Dry-run (F5) shows what it would change without writing. "
                            "Turn writes on for this session to run it for real? F8 switches back at any time."))
            else:
                yield Label(Text("With writes on, F6 changes the workspace for real (each write still shows its diff and asks). "
                            "Dry-runs (F5) work either way. Turn writes on for this session?"))
            with Horizontal(id="allow-buttons"):
                yield Button("Allow writes (w)", variant="warning", id="allow-yes")
                yield Button("Stay read-only (n)", variant="primary", id="allow-no")

    def on_mount(self) -> None:
        self.query_one("#allow-no", Button).focus()

    @on(Button.Pressed, "#allow-yes")
    def _yes(self) -> None:
        self.dismiss(True)

    @on(Button.Pressed, "#allow-no")
    def _no(self) -> None:
        self.dismiss(False)

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)
