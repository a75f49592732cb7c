"""Standard output for a command, with rich's Console made only when something is rendered.

A command that prints JSON (``--json``, or ``search`` into a pipe) writes to
``console.file`` and never needs rich; loading it costs more CPU than the
interpreter takes to start (bench/bench_cli.py). Everything else a command
asks of the console (``print``, ``width``, ``is_terminal``) makes the real
Console on first use and answers from it.
"""

from __future__ import annotations

import builtins
import os
import sys
from typing import Any, TextIO

_STD_STREAMS = (0, 1, 2)  # where rich asks for the terminal's size, in this order


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

    def plain_width(self) -> int | None:
        """The width rich would wrap at when it writes no colours or terminal codes here; None when it might (or cannot be told without rich).

        The same decisions as ``rich.console.Console`` (rich 13 to 15): a
        terminal, ``TTY_COMPATIBLE=1`` or a non-empty ``FORCE_COLOR`` get
        colours; the width is ``$COLUMNS``, else the first standard stream
        that is a terminal, else 80.
        """
        if self._console is not None or self._options.get("width") is not None or sys.platform == "win32" or hasattr(builtins, "get_ipython"):
            return None
        if (getattr(sys.stdin, "__module__", None) or "").startswith("idlelib"):
            return None
        if not (getattr(self.file, "encoding", None) or "utf-8").lower().startswith("utf"):
            return None  # rich draws tables in ASCII there
        compatible, force_color = os.environ.get("TTY_COMPATIBLE", ""), os.environ.get("FORCE_COLOR")
        if compatible == "1" or (compatible != "0" and force_color):
            return None
        try:
            if compatible != "0" and force_color is None and self.file.isatty():
                return None
        except (AttributeError, ValueError):
            return None
        columns = os.environ.get("COLUMNS", "")
        if columns.isdigit():
            width = int(columns)
        else:
            width = 0
            for descriptor in _STD_STREAMS:
                try:
                    width = os.get_terminal_size(descriptor).columns
                    break
                except (AttributeError, ValueError, OSError):
                    pass
        width = width or 80
        return width if width >= 8 else None  # a console that narrow is rich's to lay out


def print_error(prefix: str, message: str) -> None:
    """``prefix`` in red, then ``message`` as plain text (never markup), on standard error."""
    from rich.console import Console
    from rich.text import Text

    Console(file=sys.stderr, highlight=False, soft_wrap=True).print(Text.assemble((prefix, "red"), f" {message}"))
