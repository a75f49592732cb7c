"""The raw JSON of the arguments, editable; kept in step with the form both ways."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from textual import on
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.widgets import Label, TextArea

from opgate.core import safe_json

from .._plain import json_text


def dump(args: dict[str, Any]) -> str:
    return json_text(args)  # a control character in a value shows as its \u escape (the same JSON value)


class JsonEditor(Vertical):
    """Shows arguments set by the parent (:meth:`show`); edits that parse go up as :class:`Edited`."""

    DEFAULT_CSS = """
    JsonEditor { height: 1fr; }
    JsonEditor > TextArea { height: 1fr; border: none; padding: 0 1; }
    JsonEditor > .json-status { height: 1; padding: 0 1; color: $text-error; display: none; }
    JsonEditor.-invalid > .json-status { display: block; }
    """

    @dataclass
    class Edited(Message):
        """The text holds a JSON object: these are the new arguments."""

        args: dict[str, Any]

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._status_text = ""

    def compose(self) -> ComposeResult:
        area = TextArea("{}", soft_wrap=True, show_line_numbers=False, tab_behavior="indent")
        area.tooltip = "The arguments as JSON: edits here update the form, and the form updates this"
        yield area
        yield Label("raw JSON: edits here update the form", classes="json-status")

    @property
    def text(self) -> str:
        return self.query_one(TextArea).text

    def show(self, args: dict[str, Any]) -> None:
        """Show ``args``, unless the text already means exactly that (keeps the cursor while typing)."""
        area = self.query_one(TextArea)
        try:
            if safe_json.loads(area.text, check_text=False) == args:
                return
        except safe_json.JsonInputError:
            pass
        with area.prevent(TextArea.Changed):
            area.text = dump(args)
        self._status("raw JSON: edits here update the form", ok=True)

    def _status(self, text: str, *, ok: bool) -> None:
        self.set_class(not ok, "-invalid")
        if text != self._status_text:
            self._status_text = text
            self.query_one(".json-status", Label).update(text)

    @on(TextArea.Changed)
    def _typed(self, event: TextArea.Changed) -> None:
        event.stop()
        try:
            value = safe_json.loads(event.text_area.text or "{}", what="the arguments", check_text=False)
        except safe_json.JsonInputError as exc:
            self._status(f"not usable yet: {exc.message}", ok=False)
            return
        if not isinstance(value, dict):
            self._status("the arguments are one JSON object: {...}", ok=False)
            return
        self._status("raw JSON: edits here update the form", ok=True)
        self.post_message(self.Edited(value))
