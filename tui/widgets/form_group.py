"""A nested object, an array (items added and removed) or a ``oneOf``/``anyOf`` pick in the call form."""

from __future__ import annotations

from dataclasses import dataclass

from textual import on
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Button, Label, Select, Static

from .._plain import plain
from ..forms import Path, Slot


def _item_box(index: int, child: Widget) -> Vertical:
    remove = Button("✕ remove", classes="remove", name=str(index), compact=True, tooltip="Remove this item")
    head = Horizontal(Label(f"item {index + 1}"), remove, classes="item-head")
    return Vertical(head, child, classes="form-item")


class FormGroup(Vertical):
    """A titled box around other form widgets; structural edits go up as messages."""

    DEFAULT_CSS = """
    FormGroup { height: auto; border: round $foreground 30%; border-title-color: $text-primary; padding: 0 1; margin: 0 0 1 0; }
    FormGroup.-invalid { border: round $error; }
    FormGroup .group-head { height: 1; }
    FormGroup .group-head Static { width: 1fr; color: $text-muted; text-wrap: nowrap; text-overflow: ellipsis; }
    FormGroup .group-head Button, FormGroup .item-head Button { height: 1; min-width: 8; border: none; margin: 0 0 0 1; }
    FormGroup .group-error { color: $text-error; display: none; height: auto; }
    FormGroup.-invalid > .group-error { display: block; }
    FormGroup .form-item { height: auto; border-left: thick $foreground 20%; padding: 0 0 0 1; margin: 0 0 1 0; }
    FormGroup .item-head { height: 1; }
    FormGroup .item-head Label { width: 1fr; color: $text-muted; }
    FormGroup .variant-select { width: 1fr; margin: 0 0 1 0; }
    """

    error: reactive[str] = reactive("")

    @dataclass
    class ItemAdded(Message):
        """Append a fresh item to the array at ``path``."""

        path: Path

    @dataclass
    class ItemRemoved(Message):
        """Remove the array item at ``path`` (its last part is the index)."""

        path: Path

    @dataclass
    class VariantChosen(Message):
        """The value at ``path`` takes alternative ``index`` of its ``oneOf``/``anyOf``."""

        path: Path
        index: int

    def __init__(self, slot: Slot, *children: Widget):
        super().__init__()
        self.slot = slot
        self._children = children
        spec = slot.spec
        title = slot.label + (" *" if spec.required and not slot.in_array else "")
        self.border_title = plain(f"{title}  {spec.type_label}")
        self.tooltip = plain(spec.description) if spec.description else None

    def compose(self) -> ComposeResult:
        spec, role = self.slot.spec, self.slot.role
        if spec.description or role == "array":
            with Horizontal(classes="group-head"):
                yield Static(spec.description.splitlines()[0] if spec.description else "", markup=False)
                if role == "array":
                    yield Button("+ add", classes="add", compact=True, tooltip="Add an item")
        yield Label("", classes="group-error")
        if role == "variant":
            options = [(plain(v.label), i) for i, v in enumerate(spec.variants)]
            yield Select(options, value=self.slot.variant or 0, allow_blank=False, compact=True, classes="variant-select")
        for index, child in enumerate(self._children):
            yield _item_box(index, child) if role == "array" else child
        if role == "array" and not self._children:
            yield Label("(no items: + add makes one)", classes="empty")

    async def append_item(self, slot: Slot, child: Widget) -> None:
        """Mount one more item (cheaper than building the array again)."""
        await self.query_children(".empty").remove()
        index = len(self.query_children(".form-item"))
        self.slot = slot
        await self.mount(_item_box(index, child))

    def watch_error(self, error: str) -> None:
        self.set_class(bool(error), "-invalid")
        for label in self.query_children(".group-error").results(Label):
            label.update(plain(error))

    @on(Button.Pressed, ".add")
    def _add(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.ItemAdded(self.slot.path))

    @on(Button.Pressed, ".remove")
    def _remove(self, event: Button.Pressed) -> None:
        event.stop()
        self.post_message(self.ItemRemoved(self.slot.path + (int(event.button.name or 0),)))

    @on(Select.Changed, ".variant-select")
    def _variant(self, event: Select.Changed) -> None:
        event.stop()
        if isinstance(event.value, int) and event.value != self.slot.variant:
            self.post_message(self.VariantChosen(self.slot.path, event.value))
