"""Copy the call: as the JSON payload, as an ``opgate exec`` command line, as Python, or (HTTP ops) as curl."""

from __future__ import annotations

from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from .._plain import escape

from .._keys import COPY_FORMATS

KEYS = {"json": "j", "cli": "c", "python": "p", "curl": "u"}


class CopyScreen(ModalScreen[str | None]):
    """Dismisses with ``json``, ``cli``, ``python`` or ``curl``; offers the formats it is given previews of."""

    BINDINGS: ClassVar = [
        Binding("j", "choose('json')", "JSON", tooltip="The exec payload as JSON", id="opgate.copy.json"),
        Binding("c", "choose('cli')", "CLI", tooltip="An opgate exec command line", id="opgate.copy.cli"),
        Binding("p", "choose('python')", "Python", tooltip="gw.exec(...) in Python", id="opgate.copy.python"),
        Binding("u", "choose('curl')", "curl", tooltip="The HTTP request as a curl command (HTTP ops)", id="opgate.copy.curl"),
        Binding("escape", "choose('')", "Close", tooltip="Copy nothing", id="opgate.copy.close"),
    ]

    def __init__(self, previews: dict[str, str]):
        super().__init__()
        self.previews = previews

    def compose(self) -> ComposeResult:
        with Vertical(id="copy-box", classes="modal-box"):
            yield Label("[b]Copy the call as…[/b]")
            options = [Option(f"[b]{KEYS[fmt]}[/b]  {title}\n[dim]{escape(self._first_line(fmt))}[/dim]", id=fmt) for fmt, title in COPY_FORMATS if fmt in self.previews]
            yield OptionList(*options, id="copy-list")

    def _first_line(self, fmt: str) -> str:
        # The preview holds the call's arguments: text, so escaped into this markup.
        lines = self.previews.get(fmt, "").splitlines()
        return lines[0][:70] if lines else ""

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_choose(self, fmt: str) -> None:
        self.dismiss(fmt if fmt in self.previews else None)
