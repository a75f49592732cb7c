"""The REPL without a terminal: ``opgate repl < script.txt``.

Each line is echoed after the prompt it would have had, then run; blank
lines and ``#`` comments are skipped. Nobody is there to answer questions,
so missing arguments are not asked for and confirmations are not given.
The exit status is 1 when any line failed; with ``stop_on_error`` the script
stops at the first line that fails.
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.console import Console
from rich.text import Text

from opgate.core import Gateway
from opgate.core.echo_text import shortened
from opgate.core.exec import ConfirmationRequest

from ._commands import run_line
from ._namespace import Namespace
from ._state import ReplState


# The transcript names the line that ran; a line of a megabyte is not printed back whole.
SCRIPT_ECHO_CHARS = 400


def _echo(console: Console, prompt: str, line: str) -> None:
    console.print(Text(prompt, style="bold").append(shortened(line, SCRIPT_ECHO_CHARS), style="bold cyan"))


def _refusing_approver(console: Console):
    def refuse(request: ConfirmationRequest) -> bool:
        console.print(Text(f"{request.op} needs a person's confirmation, and a script cannot give it: run it in the interactive REPL", style="yellow"))
        return False

    return refuse


def run_script(gateway: Gateway, console: Console, lines: Iterable[str], *, verbose: bool = False, stop_on_error: bool = False) -> int:
    """Run ``lines`` one by one; 0 when every one succeeded, 1 otherwise."""
    namespace = Namespace(gateway)
    source = (line.rstrip("\r\n") for line in lines)

    def read_line(prompt: str) -> str | None:
        line = next(source, None)
        if line is not None:
            _echo(console, prompt, line)
        return line

    state = ReplState(gateway, console, namespace, read_line=read_line, verbose=verbose, stop_on_error=stop_on_error)
    previous_approver = gateway.approver
    if previous_approver is None:
        gateway.approver = _refusing_approver(console)
    try:
        ran, failed = _run_lines(state, source)
    finally:
        gateway.approver = previous_approver
    if failed:
        console.print(Text(f"{failed} of {ran} commands failed", style="bold red"))
    return 1 if failed else 0


def _run_lines(state: ReplState, source) -> tuple[int, int]:
    ran = failed = 0
    for line in source:
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        _echo(state.console, state.namespace.prompt_path + "> ", line)
        state.lines.append(line)
        ran += 1
        if not run_line(state, line):
            failed += 1
            if state.stop_on_error:
                state.console.print(Text(f"stopped at the first failure (--stop-on-error): {line.strip()}", style="bold red"))
                break
        if not state.running:
            break
    return ran, failed
