"""Standard output for a command, with rich's Console made only when something is rendered.

A command that prints JSON (``--json``, or ``search`` into a pipe) writes to
``console.file`` and never needs rich; loading it costs more CPU than the
interpreter takes to start (bench/bench_cli.py). Everything else a command
asks of the console (``print``, ``width``, ``is_terminal``) makes the real
Console on first use and answers from it.
"""

from __future__ import annotations

import sys
from typing import Any, TextIO


class StdoutConsole:
    """Duck-types ``rich.console.Console``: ``file`` at once, the rest from a Console made on first use."""

    def __init__(self, file: TextIO | None = None, **options: Any):
        self.file = file if file is not None else sys.stdout
        self._options = options
        self._console: Any = None

    def __getattr__(self, name: str) -> Any:
        # Only called for names this object lacks: everything but ``file``.
        if name.startswith("__"):
            raise AttributeError(name)
        if self._console is None:
            from rich.console import Console

            self._console = Console(file=self.file, **self._options)
        return getattr(self._console, name)


def print_error(prefix: str, message: str) -> None:
    """``prefix`` in red, then ``message`` as plain text (never markup), on standard error."""
    from rich.console import Console
    from rich.text import Text

    Console(file=sys.stderr, highlight=False, soft_wrap=True).print(Text.assemble((prefix, "red"), f" {message}"))
