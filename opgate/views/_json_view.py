"""JSON shown to people: highlighted where colours show, plain text where they cannot.

Highlighting needs pygments (through ``rich.syntax``), which costs a command
line more than the rest of its output. Into a pipe or a file no colour is
written anyway, and the plain text is the same characters, wrapped the same
way, so the highlighter is loaded only for a console that has colours.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rich.text import Text

if TYPE_CHECKING:
    from rich.console import Console, ConsoleOptions, RenderResult


class JsonView:
    """A JSON text, rendered as highlighted JSON or as plain text (never markup) by what the console can show."""

    def __init__(self, text: str):
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        if console.color_system is None:
            yield Text(self.text)
            return
        from rich.syntax import Syntax

        yield Syntax(self.text, "json", theme="ansi_dark", background_color="default", word_wrap=True)
