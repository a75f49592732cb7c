"""Pick an id from the workspace (``gw.id_choices``): projects by name, documents of the chosen project..."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual.markup import escape
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from .._failures import ReportsWorkerFailures


class IdPickerScreen(ReportsWorkerFailures, ModalScreen[tuple[str, str] | None]):
    """Dismisses with the chosen ``(id, label)``, or ``None``."""

    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Close", tooltip="Close without picking", id="opgate.pick.close"),
        Binding("down", "to_list", "Choices", show=False, tooltip="Move into the choices", id="opgate.pick.choices"),
    ]

    @dataclass
    class Loaded(Message):
        """The workspace's choices for ``text``."""

        text: str
        choices: list[Any]

    def __init__(self, argument: str, project_id: str | None = None):
        super().__init__()
        self.labels: dict[str, str] = {}
        self.argument = argument
        self.project_id = project_id
        self.text = ""

    def compose(self) -> ComposeResult:
        scope = " in the chosen project" if self.project_id and self.argument != "project_id" else ""
        with Vertical(id="picker-box", classes="modal-box"):
            yield Label(f"[b]Pick {escape(self.argument)}[/b]{scope}  [dim]type to narrow, Enter picks[/dim]")
            yield Input(placeholder="name…", id="picker-input")
            yield OptionList(id="picker-choices")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._load("")

    @on(Input.Changed, "#picker-input")
    def _typed(self, event: Input.Changed) -> None:
        self.text = event.value
        self._load(event.value)

    @work(thread=True, exclusive=True, exit_on_error=False, name="id choices")
    def _load(self, text: str) -> None:
        choices = self.app.gateway.id_choices(self.argument, text, project_id=self.project_id)  # type: ignore[attr-defined]
        self.post_message(self.Loaded(text, list(choices)))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        if event.text != self.text:
            return
        options = self.query_one("#picker-choices", OptionList)
        options.clear_options()
        self.labels = {c.id: c.label for c in event.choices}
        for choice in event.choices:
            label = Text.assemble((choice.label, "bold"), (f"  {choice.kind} · {choice.id}", "dim"))
            options.add_option(Option(label, id=choice.id))
        if not event.choices:
            hint = "type a name to search every kind" if not event.text else f"nothing in the workspace fits {self.argument}"
            options.add_option(Option(Text(hint, style="dim"), disabled=True))
        else:
            options.highlighted = 0

    @on(Input.Submitted, "#picker-input")
    def _submitted(self) -> None:
        option = self.query_one("#picker-choices", OptionList).highlighted_option
        if option is not None and not option.disabled:
            self._pick(option.id)

    @on(OptionList.OptionSelected, "#picker-choices")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._pick(event.option.id)

    def _pick(self, entity_id: str | None) -> None:
        if entity_id:
            self.dismiss((entity_id, self.labels.get(entity_id, "")))

    def action_to_list(self) -> None:
        self.query_one("#picker-choices", OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
