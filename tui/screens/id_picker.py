"""Pick an id from the workspace (``gw.id_choices``): projects by name, documents of the chosen project..."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from .._failures import ReportsWorkerFailures
from .._plain import shown


# The option that stands for "no parent": the value it sets is null.
ROOT_OPTION = "\x00root"


class IdPickerScreen(ReportsWorkerFailures, ModalScreen[tuple[str | None, str] | None]):
    """Dismisses with the chosen ``(id, label)`` (``(None, "(root)")`` for no parent), or ``None``."""

    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Close", tooltip="Close without picking", id="opgate.pick.close"),
        Binding("down", "to_list", "Choices", show=False, tooltip="Move into the choices", id="opgate.pick.choices"),
    ]

    @dataclass
    class Loaded(Message):
        """The workspace's choices for ``text``."""

        text: str
        choices: list[Any]

    def __init__(self, argument: str, project_id: str | None = None, *, moving: str | None = None, offer_root: bool = False):
        """``moving``: the document being moved (left out of its new-parent choices); ``offer_root``: null is a valid pick."""
        super().__init__()
        self.labels: dict[str, str] = {}
        self.argument = argument
        self.project_id = project_id
        self.moving = moving
        self.offer_root = offer_root
        self.text = ""

    def compose(self) -> ComposeResult:
        scope = " in the chosen project" if self.project_id and self.argument != "project_id" else ""
        with Vertical(id="picker-box", classes="modal-box"):
            yield Label(Content.from_markup("[b]Pick $argument[/b]$scope  [dim]type to narrow, Enter picks[/dim]", argument=shown(self.argument), scope=scope))
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
        choices = self.app.gateway.id_choices(self.argument, text, project_id=self.project_id, moving=self.moving)  # type: ignore[attr-defined]
        self.post_message(self.Loaded(text, list(choices)))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        if event.text != self.text:
            return
        options = self.query_one("#picker-choices", OptionList)
        options.clear_options()
        self.labels = {c.id: c.label for c in event.choices}
        if self.offer_root and not event.text:
            options.add_option(Option(Text.assemble(("(root)", "bold"), ("  no parent: the top of the project", "dim")), id=ROOT_OPTION))
        for choice in event.choices:
            what = choice.what or choice.kind
            marker = "▸ " if what == "folder" else "  "
            label = Text.assemble(marker, (shown(choice.label), "bold"), (f"  {what} · {shown(choice.id)}", "dim"))
            options.add_option(Option(label, id=choice.id))
        if not event.choices and not (self.offer_root and not event.text):
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
        if entity_id == ROOT_OPTION:
            self.dismiss((None, "(root)"))
        elif entity_id:
            self.dismiss((entity_id, self.labels.get(entity_id, "")))

    def action_to_list(self) -> None:
        self.query_one("#picker-choices", OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
