"""Save a call to a collection: which collection, the call's name, notes, and whether to expect the last answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label


@dataclass(frozen=True)
class SaveRequest:
    """What the person chose; ``expect`` is the ``[expect]`` table to write."""

    collection: str
    name: str
    notes: str
    expect: dict[str, Any]


class SaveCallScreen(ModalScreen[SaveRequest | None]):
    """Dismisses with a :class:`SaveRequest`, or None when cancelled."""

    BINDINGS: ClassVar = [
        Binding("ctrl+s", "save", "Save", tooltip="Save the call to the collection", id="opgate.save.confirm"),
        Binding("escape", "cancel", "Cancel", tooltip="Save nothing", id="opgate.save.cancel"),
    ]

    def __init__(self, op: str, *, collection: str, name: str, expected: dict[str, Any] | None, expected_text: str, existing: list[str]):
        super().__init__()
        self.op = op
        self.collection = collection
        self.call_name = name
        self.expected = expected
        self.expected_text = expected_text
        self.existing = existing

    def compose(self) -> ComposeResult:
        with Vertical(id="save-box", classes="modal-box"):
            yield Label(Text.assemble(("Save ", "bold"), (self.op, "bold"), (" to a collection", "bold")))
            known = ", ".join(self.existing) if self.existing else "none yet"
            yield Label(Text(f"Collection (a folder name; existing: {known})", style="dim"))
            yield Input(self.collection, id="save-collection")
            yield Label(Text("Name of the call (later calls refer to it as $name)", style="dim"))
            yield Input(self.call_name, id="save-name")
            yield Label(Text("Notes", style="dim"))
            yield Input(placeholder="what this call checks, for the next person", id="save-notes")
            yield Checkbox(Text(f"Expect what it last answered: {self.expected_text}"), value=self.expected is not None, id="save-expect", disabled=self.expected is None)
            with Horizontal(id="save-buttons"):
                yield Button("Save (ctrl+s)", variant="primary", id="save-yes")
                yield Button("Cancel (esc)", id="save-no")

    def on_mount(self) -> None:
        self.query_one("#save-collection", Input).focus()

    def action_save(self) -> None:
        collection = self.query_one("#save-collection", Input).value.strip()
        if not collection or "/" in collection or "\\" in collection or collection.startswith("."):
            self.notify("Name the collection with a plain folder name (no slashes).", severity="error")
            return
        expect = self.expected if self.query_one("#save-expect", Checkbox).value and self.expected else {"ok": True}
        self.dismiss(SaveRequest(collection, self.query_one("#save-name", Input).value.strip(), self.query_one("#save-notes", Input).value.strip(), expect))

    def action_cancel(self) -> None:
        self.dismiss(None)

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#save-yes")
    def _yes(self) -> None:
        self.action_save()

    @on(Button.Pressed, "#save-no")
    def _no(self) -> None:
        self.action_cancel()
