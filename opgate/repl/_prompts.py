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

from opgate.views import render_diff
from opgate.core.exec import Approver, ConfirmationRequest

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
        console.print(Group(Text(f"{request.op} needs your confirmation. It would change:", style="bold yellow"), render_diff(request.diff)))
        answer = ask("Run it for real? [y/N] ", None)
        approved = (answer or "").strip().lower() in YES
        if not approved:
            console.print(Text("not confirmed; nothing was written", style="yellow"))
        return approved

    return approve
