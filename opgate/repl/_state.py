"""What one REPL run carries from line to line."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from prompt_toolkit.completion import Completer
from rich.console import Console, RenderableType
from rich.text import Text

from opgate.core import Gateway

from ._namespace import Namespace

Ask = Callable[[str, Completer | None], str | None]
"""Ask the person a question; ``None`` when they cancel (Ctrl-C, Ctrl-D)."""


@dataclass
class ReplState:
    """The gateway, where we stand, how results print, and how to read more input.

    ``read_line`` gives the next line of input for commands that read several
    (``batch``), in scripts as well; ``ask`` is ``None`` in scripts, where
    nobody can be asked for a missing argument.
    """

    gateway: Gateway
    console: Console
    namespace: Namespace
    read_line: Callable[[str], str | None]
    ask: Ask | None = None
    history_lines: Callable[[], list[str]] | None = None
    lines: list[str] = field(default_factory=list)
    format: str = "table"
    verbose: bool = False
    stop_on_error: bool = False
    running: bool = True
    # A question is on the terminal (a confirmation or an upstream's question, asked while a call runs):
    # nothing else may print over it.
    asking: bool = False
    # The line the next prompt starts with: search fills in the top pointer's
    # call with its suggested arguments ("exec onto.task.update state_key=done ").
    next_line: str = ""

    @property
    def interactive(self) -> bool:
        return self.ask is not None

    def show(self, renderable: RenderableType | str, *, soft_wrap: bool = False) -> None:
        """``soft_wrap`` leaves long lines whole, so a script's three-line error stays three lines in its log.

        At a prompt nothing is soft-wrapped: the terminal would fold a long line inside a
        word ("w" / "rites are off"); rich wraps it between words at the console's width.
        """
        # Plain strings are printed as text: lines hold JSON, whose brackets rich would read as markup.
        self.console.print(Text(renderable) if isinstance(renderable, str) else renderable, soft_wrap=soft_wrap)

    def past_lines(self) -> list[str]:
        return self.history_lines() if self.history_lines is not None else list(self.lines)
