"""Ask where to write the last call's report (``.md`` or ``.json``); the explorer writes it off the UI thread."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label

from opgate.core.call_report import report_format


class ExportCallScreen(ModalScreen[str | None]):
    """Dismisses with the path typed, or None."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", "Cancel", tooltip="Write nothing", id="opgate.export.cancel")]

    def __init__(self, suggested: str, what: str):
        super().__init__()
        self.suggested = suggested
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(id="export-box", classes="modal-box"):
            yield Label(Text.assemble(("Export ", "bold"), (self.what, "bold")))
            yield Label(Text("The arguments, the envelope and the diff. A name ending in .md writes Markdown (for an issue or a sign-off); .json writes JSON."))
            yield Input(self.suggested, id="export-path")
            yield Label("", id="export-problem")
            with Horizontal(id="export-buttons"):
                yield Button("Write", variant="primary", id="export-yes")
                yield Button("Cancel", id="export-no")

    def on_mount(self) -> None:
        field = self.query_one("#export-path", Input)
        field.focus()
        # The cursor sits before the suffix, so typing renames the file and keeps its format.
        stem_end = self.suggested.rfind(".")
        field.cursor_position = stem_end if stem_end > 0 else len(self.suggested)

    def _submit(self) -> None:
        path = self.query_one("#export-path", Input).value.strip()
        if not path or report_format(path) is None:
            self.query_one("#export-problem", Label).update(Text("Name a file ending in .md or .json.", style="bold red"))
            return
        self.dismiss(path)

    @on(Input.Submitted, "#export-path")
    def _submitted(self) -> None:
        self._submit()

    @on(Button.Pressed, "#export-yes")
    def _yes(self) -> None:
        self._submit()

    @on(Button.Pressed, "#export-no")
    def _no(self) -> None:
        self.dismiss(None)

    def action_cancel(self) -> None:
        self.dismiss(None)
