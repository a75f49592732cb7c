"""opgate.repl: an interactive shell over the Gateway, for people who think in commands.

``opgate repl`` calls :func:`run_repl`. On a terminal it is a prompt_toolkit
session (schema-aware completion, highlighting, history); with standard input
from a file or a pipe it runs the lines as a script.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from rich.console import Console

from opgate.core import Gateway

from ._interactive import default_history_path, run_interactive
from ._namespace import Namespace
from ._script import run_script
from ._suggest import suggest

__all__ = ["Namespace", "default_history_path", "run_repl", "suggest"]


def run_repl(
    gateway: Gateway,
    *,
    console: Console | None = None,
    stdin: TextIO | None = None,
    interactive: bool | None = None,
    history_path: str | Path | None = None,
    verbose: bool = False,
    stop_on_error: bool = False,
) -> int:
    """Run the REPL on ``gateway``; the exit status.

    ``interactive`` defaults to whether ``stdin`` is a terminal. Scripts exit
    1 when any line failed. ``history_path`` overrides where the prompt keeps
    its history (default: :func:`default_history_path`). ``verbose`` shows
    errors in full rather than in three lines; ``stop_on_error`` ends a script
    at its first failing line.
    """
    stdin = stdin if stdin is not None else sys.stdin
    console = console if console is not None else Console(highlight=False)
    if interactive is None:
        interactive = stdin.isatty()
    if not interactive:
        return run_script(gateway, console, stdin, verbose=verbose, stop_on_error=stop_on_error)
    return run_interactive(gateway, console, Path(history_path) if history_path else default_history_path(), verbose=verbose)
