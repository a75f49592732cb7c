"""One input of the call form: a label, the input (text, number, select, raw JSON) and its error."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.content import Content
from textual.containers import Horizontal, Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widgets import Button, Input, Label, Select, Static

from .._keys import FORM_KEYS
from .._plain import plain, shown
from ..forms import MISSING, Path, Slot, parse_text, to_text
from .form_input import FormInput

PLACEHOLDERS = {
    "uuid": "uuid (F7 picks one)",
    "date-time": "2026-03-01T09:00:00Z",
    "date": "2026-03-01",
    "email": "name@example.com",
    "uri": "https://…",
}


def _placeholder(slot: Slot) -> str:
    spec = slot.spec
    if spec.kind == "json":
        text = "JSON"
    elif spec.picks_id and spec.format != "uuid":
        text = "id (F7 picks one)"
    else:
        text = PLACEHOLDERS.get(spec.format or "", spec.type_label.replace("|null", ""))
    return f"{text}, or null" if spec.nullable else text


class FormField(Vertical):
    """Edits one leaf value. The form sets :attr:`error`; edits go up as :class:`Edited`."""

    BINDINGS: ClassVar = FORM_KEYS
    DEFAULT_CSS = """
    FormField { height: auto; margin: 0 0 1 0; }
    FormField .field-head { height: 1; width: 1fr; }
    FormField .field-row { height: auto; }
    FormField Input, FormField Select { width: 1fr; }
    FormField .field-row Button { min-width: 6; width: 6; height: 1; border: none; margin: 0 0 0 1; }
    FormField .field-error { color: $text-error; width: 1fr; height: auto; display: none; }
    FormField.-invalid .field-error { display: block; }
    FormField.-missing .field-error { display: none; }
    """

    error: reactive[str] = reactive("")

    @dataclass
    class Edited(Message):
        """The person changed the value (``MISSING`` when cleared); ``problem`` when the text is no value."""

        field: FormField
        path: Path
        value: Any
        problem: str | None = None

    @dataclass
    class PickRequested(Message):
        """Ask for an id from the workspace for this field."""

        field: FormField
        path: Path
        name: str

    def __init__(self, slot: Slot, value: Any):
        super().__init__()
        self.note = ""
        self.slot = slot
        self._value = value
        self.tooltip = plain(slot.spec.description) if slot.spec.description else None

    # -- composing ----------------------------------------------------------------------

    def _head(self, missing: bool = False) -> Content:
        # Catalogue text goes in as markup variables, never pasted into markup: escape() leaves "[31m" and a
        # trailing backslash as they are, and "mode[31m" then swallowed the closing [/b] ("mode[31m[/b] string").
        spec = self.slot.spec
        markup = "[b]$label[/b] [dim]$type[/dim]"
        if self.note:
            markup += " [$text-success]= $note[/]"
        if missing:
            markup += " [$text-warning]* required[/]"
        elif spec.required:
            markup += " [$text-warning]*[/]"
        if self._hidden:
            markup += " [$text-warning]holds $hidden[/]"
        described = bool(spec.description) and not self.slot.in_array
        if described:
            markup += " [dim]— $description[/dim]"
        return Content.from_markup(
            markup, label=shown(self.slot.label), type=shown(spec.type_label), note=shown(self.note), hidden=self._hidden,
            description=shown(spec.description.splitlines()[0]) if described and spec.description.splitlines() else "",
        )

    @property
    def _hidden(self) -> str:
        """The control characters in the value, as escapes: an input cannot show them, so the head names them."""
        text = to_text(self.slot.spec, self._value) if self._value is not MISSING else ""
        return " ".join(dict.fromkeys(mark for ch in text if (mark := shown(ch)) != ch))

    def _value_set(self, value: Any) -> None:
        before = self._hidden
        self._value = value
        if self._hidden != before and self.is_mounted:
            self.query_one(".field-head", Static).update(self._head(self.has_class("-missing")))

    def compose(self) -> ComposeResult:
        spec = self.slot.spec
        yield Static(self._head(), classes="field-head")
        if spec.picks_id:
            with Horizontal(classes="field-row"):
                yield self._input()
                pick = Button("pick", classes="pick", tooltip="Pick from the workspace (F7)", compact=True)
                pick.can_focus = False  # F7 in the input does the same; Tab goes field to field
                yield pick
        else:
            yield self._input()

    def _input(self) -> Input | Select:
        spec = self.slot.spec
        if spec.kind in ("enum", "boolean"):
            values = list(spec.enum) if spec.kind == "enum" else [True, False]
            options = [(plain(to_text(spec, v)), index) for index, v in enumerate(values)]
            if spec.nullable:
                options.append(("null", len(values)))
            index = self._select_index(self._value)
            blank = not self.slot.in_array or index is Select.NULL
            return Select(options, prompt="(not set)", allow_blank=blank, value=index, compact=True)
        # Always a text input: a number input drops refused keys without a word, while the
        # form says why "3x" is not a whole number. Focus never selects the text, so the
        # next key cannot replace a picked id.
        return FormInput(to_text(spec, self._value), placeholder=_placeholder(self.slot), compact=True, valid_empty=True, select_on_focus=False)

    def _choices(self) -> list[Any]:
        spec = self.slot.spec
        values = list(spec.enum) if spec.kind == "enum" else [True, False]
        return values + ([None] if spec.nullable else [])

    def _select_index(self, value: Any) -> Any:
        if value is MISSING:
            return Select.NULL
        for index, choice in enumerate(self._choices()):
            if choice == value and type(choice) is type(value):
                return index
        return Select.NULL

    # -- values ----------------------------------------------------------------------------

    def show_value(self, value: Any) -> None:
        """Put ``value`` in the input without reporting it as an edit."""
        self._value_set(value)
        for select in self.query(Select):
            with select.prevent(Select.Changed):
                select.value = self._select_index(value)
        for box in self.query(Input):
            text = to_text(self.slot.spec, value)
            if box.value != text and parse_text(self.slot.spec, box.value, in_array=self.slot.in_array)[0] != value:
                with box.prevent(Input.Changed):
                    box.value = text

    def set_note(self, note: str) -> None:
        """A word about the value, such as the name of the entity whose id was picked."""
        self.note = note
        self.query_one(".field-head", Static).update(self._head(self.has_class("-missing")))

    @property
    def shown_id(self) -> str | None:
        """The id the field holds, when it is one that names an entity (``project_id``, ``new_parent_id``)."""
        return self._value if self.slot.spec.picks_id and isinstance(self._value, str) and self._value else None

    def show_name(self, names: Mapping[str, str]) -> None:
        """Name the entity whose id the field holds, when ``names`` knows it (an id picked, re-opened or pasted)."""
        if self.shown_id is not None and names.get(self.shown_id, "") != self.note:
            self.set_note(names.get(self.shown_id, ""))

    def watch_error(self, error: str) -> None:
        self.set_class(bool(error), "-invalid")
        # Error text quotes what the person typed ("[/" included): never read it as markup.
        # The label is made with the first error: most fields never have one, and a form of 205 fields mounts faster without.
        labels = self.query_children(".field-error")
        if labels:
            labels.first(Label).update(Text(error))
        elif error:
            self.mount(Label(Text(error), classes="field-error"))

    def set_error(self, error: str, *, missing_only: bool = False) -> None:
        missing = missing_only and bool(error)
        if missing != self.has_class("-missing"):
            self.set_class(missing, "-missing")
            self.query_one(".field-head", Static).update(self._head(missing))
        self.error = error

    @on(Input.Changed)
    def _typed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value == to_text(self.slot.spec, self._value):
            # The text the form put there: an Input reports its first value as a change when it mounts,
            # and a field mounted late must not rewrite (or re-check) what the arguments already hold.
            return
        if self.note:
            self.set_note("")
        value, problem = parse_text(self.slot.spec, event.value, in_array=self.slot.in_array)
        self._value_set(value)
        self.post_message(self.Edited(self, self.slot.path, value, problem))

    @on(Select.Changed)
    def _picked(self, event: Select.Changed) -> None:
        event.stop()
        index = event.value
        value = MISSING if index is Select.NULL or not isinstance(index, int) else self._choices()[index]
        self._value = value
        self.post_message(self.Edited(self, self.slot.path, value))

    @on(Button.Pressed, ".pick")
    def _pick_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.action_pick()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "pick":
            return self.slot.spec.picks_id
        return True

    def action_pick(self) -> None:
        self.post_message(self.PickRequested(self, self.slot.path, str(self.slot.path[-1]) if self.slot.path else "id"))

    @property
    def is_empty(self) -> bool:
        return self._value is MISSING

    def focus_input(self) -> None:
        # Scrolled once laid out, and the whole field (its head too): focus scrolls to the input at once, and in a
        # form mounted in this frame that put Twilio's first field's head above the top (the form opened scrolled).
        for widget in self.query("Input, Select"):
            widget.focus(scroll_visible=False)
            self.call_after_refresh(self.scroll_visible, animate=False)
            return
