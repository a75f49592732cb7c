"""Choose the context scope: ``all`` or one of ``gw.contexts.names``; it decides which ops exist."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Label, OptionList
from textual.widgets.option_list import Option

from opgate.core import ALL_CONTEXTS

ALL = ALL_CONTEXTS


class ContextScreen(ModalScreen[str | None]):
    """Dismisses with a context name (``"all"`` for no scope), or ``None`` to keep the current one."""

    BINDINGS: ClassVar = [Binding("escape", "cancel", "Close", tooltip="Keep the current context", id="opgate.context.close")]

    def __init__(self, names: list[str], current: str | None):
        super().__init__()
        self.names = [ALL, *names]
        self.current = current or ALL

    def compose(self) -> ComposeResult:
        with Vertical(id="context-box", classes="modal-box"):
            yield Label("[b]Context scope[/b]  [dim]which ops exist; the tree is rebuilt[/dim]")
            options = [Option(Text.assemble(("● " if n == self.current else "  ", "bold"), n), id=n) for n in self.names]
            yield OptionList(*options, id="context-list")

    def on_mount(self) -> None:
        options = self.query_one(OptionList)
        options.highlighted = self.names.index(self.current) if self.current in self.names else 0
        options.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option.id)

    def action_cancel(self) -> None:
        self.dismiss(None)
