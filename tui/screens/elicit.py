"""An upstream asks the person something mid-call (MCP elicitation): a small form, or decline."""

from __future__ import annotations

from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Checkbox, Input, Label, Select, SelectionList, Static

from opgate.core.exec import answer_fields, answer_problems, parse_answer

from .._plain import data_text, plain, shown


class ElicitScreen(ModalScreen[dict[str, Any] | None]):
    """Dismisses with the answer, or ``None`` when the person declines."""

    BINDINGS: ClassVar = [
        Binding("escape", "decline", "Decline", tooltip="Send nothing back; the upstream is told no", id="opgate.elicit.decline"),
    ]

    def __init__(self, question: Any):
        super().__init__()
        self.question = question
        self.fields = answer_fields(question.schema)

    def compose(self) -> ComposeResult:
        with Vertical(id="elicit-box", classes="modal-box"):
            # The message is the upstream's text: shown as plain text, never as markup.
            yield Label(Text.assemble((shown(self.question.upstream), "bold"), " asks, while running ", (shown(self.question.op), "bold"), ":"))
            yield Label(data_text(self.question.message))
            with VerticalScroll(id="elicit-fields"):
                for field in self.fields:
                    label = data_text(field.title + (" *" if field.required else ""), style="bold")
                    if field.description:
                        label.append(f"  {shown(field.description)}", style="dim")
                    yield Label(label)
                    yield self._input(field)
            yield Static("", id="elicit-problems")
            with Horizontal(id="elicit-buttons"):
                yield Button("Send", variant="primary", id="elicit-send")
                yield Button("Decline (esc)", id="elicit-decline")

    def _input(self, field: Any):
        widget_id = f"elicit-{field.name}"
        labels = field.labels or tuple(str(v) for v in field.enum or ())
        if field.type == "boolean":
            return Checkbox(plain(field.title), value=bool(field.default), id=widget_id)
        if field.type == "array" and field.enum:
            chosen = set(map(str, field.default or ()))
            # Option labels are the upstream's text: plain, never markup.
            return SelectionList(*[(data_text(label), str(v), str(v) in chosen) for v, label in zip(field.enum, labels)], id=widget_id)
        if field.enum:
            options = [(data_text(label), str(v)) for v, label in zip(field.enum, labels)]
            default = str(field.default) if field.default is not None and str(field.default) in map(str, field.enum) else Select.NULL
            return Select(options, value=default, id=widget_id)
        if field.type == "array":
            return Input(value=", ".join(map(str, field.default or ())), placeholder="values, separated by commas", id=widget_id)
        return Input(value="" if field.default is None else str(field.default), id=widget_id)

    def on_mount(self) -> None:
        inputs = self.query("#elicit-fields Input, #elicit-fields Checkbox, #elicit-fields Select, #elicit-fields SelectionList")
        (inputs.first() if inputs else self.query_one("#elicit-send", Button)).focus()

    def _answer(self) -> tuple[dict[str, Any], list[str]]:
        answer: dict[str, Any] = {}
        problems: list[str] = []
        for field in self.fields:
            widget = self.query_one(f"#elicit-{field.name}")
            if isinstance(widget, Checkbox):
                answer[field.name] = widget.value
                continue
            if isinstance(widget, SelectionList):
                answer[field.name] = list(widget.selected)
                continue
            raw = widget.value if not isinstance(widget, Select) else ("" if widget.value in (Select.NULL, Select.BLANK) else str(widget.value))
            if raw == "":
                continue
            try:
                answer[field.name] = parse_answer(field, raw)
            except ValueError as exc:
                problems.append(str(exc))
        if not problems:
            problems = answer_problems(self.question.schema, answer)
        return answer, problems

    @on(Button.Pressed, "#elicit-send")
    @on(Input.Submitted)
    def _send(self) -> None:
        answer, problems = self._answer()
        if problems:
            self.query_one("#elicit-problems", Static).update(Text("\n".join(problems), style="bold red"))
            return
        self.dismiss(answer)

    @on(Button.Pressed, "#elicit-decline")
    def action_decline(self) -> None:
        self.dismiss(None)
