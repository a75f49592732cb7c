"""Asking the person things mid-command: a missing argument, or whether to run a write.

These prompts use their own ``PromptSession``: arguments given to a
session's ``prompt()`` become its new defaults, and the main prompt must
keep its own.
"""

from __future__ import annotations

from prompt_toolkit import PromptSession
from prompt_toolkit.completion import Completer
from prompt_toolkit.history import InMemoryHistory
from rich.console import Console, Group
from rich.text import Text

from opgate.core.exec import Approver, Asker, ConfirmationRequest, Question, answer_fields, answer_problems, parse_answer
from opgate.views import render_diff, render_json

from ._lexer import STYLE
from ._state import Ask

YES = ("y", "yes")


class Cancelled(Exception):
    """The person pressed Ctrl-C in the middle of a multi-line entry: drop it all."""


class Questions:
    """Questions asked on the terminal the REPL runs on."""

    def __init__(self) -> None:
        self._session: PromptSession[str] = PromptSession(history=InMemoryHistory(), style=STYLE)

    def ask(self, message: str, completer: Completer | None = None) -> str | None:
        """The answer, or ``None`` when the person presses Ctrl-C or Ctrl-D."""
        try:
            return self._session.prompt(message, completer=completer, complete_while_typing=completer is not None)
        except (KeyboardInterrupt, EOFError):
            return None

    def read_line(self, message: str) -> str | None:
        """A line, ``None`` at Ctrl-D; Ctrl-C raises :class:`Cancelled` so a half-typed batch never runs."""
        try:
            return self._session.prompt(message)
        except KeyboardInterrupt:
            raise Cancelled from None
        except EOFError:
            return None


def confirming_approver(console: Console, ask: Ask) -> Approver:
    """An approver that shows what a call would change and asks y/N; anything but yes is no."""

    def approve(request: ConfirmationRequest) -> bool:
        meta = request.preview.get("meta") or {}
        if "preview" in meta:
            # An upstream that cannot rehearse: show the request instead of a diff.
            console.print(Group(Text(f"{request.op} needs your confirmation. It would send:", style="bold yellow"), render_json(meta["preview"])))
        else:
            console.print(Group(Text(f"{request.op} needs your confirmation. It would change:", style="bold yellow"), render_diff(request.diff, request.names)))
        answer = ask("Run it for real? [y/N] ", None)
        approved = (answer or "").strip().lower() in YES
        if not approved:
            console.print(Text("not confirmed; nothing was written", style="yellow"))
        return approved

    return approve


def _choice_hint(field) -> str:
    if field.type == "boolean":
        return " [y/n]"
    if not field.enum:
        return ""
    options = "/".join(label if label == str(value) else f"{value} {label}" for value, label in zip(field.enum, field.labels or map(str, field.enum)))
    return f" ({options}{'; several, with commas' if field.type == 'array' else ''})"


def answering_asker(console: Console, ask: Ask) -> Asker:
    """An upstream's question, field by field on the prompt; Ctrl-C or an empty required field declines."""

    def answer(question: Question) -> dict | None:
        console.print(Text.assemble((question.upstream, "bold"), " asks, while running ", (question.op, "bold"), ": ", question.message))
        reply: dict = {}
        for field in answer_fields(question.schema):
            hint = _choice_hint(field)
            while True:
                text = ask(f"{field.title}{' *' if field.required else ''}{hint}: ", None)
                if text is None:
                    console.print(Text("declined; nothing was sent back", style="yellow"))
                    return None
                if not text.strip():
                    if field.required:
                        console.print(Text(f"{field.title} is required (Ctrl-C declines)", style="red"))
                        continue
                    break
                try:
                    reply[field.name] = parse_answer(field, text)
                    break
                except ValueError as exc:
                    console.print(Text(str(exc), style="red"))
        problems = answer_problems(question.schema, reply)
        if problems:
            console.print(Text("; ".join(problems) + " — declined", style="red"))
            return None
        return reply

    return answer
