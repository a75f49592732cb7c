"""The interactive REPL: a prompt_toolkit session with completion, highlighting and history.

Ctrl-C drops the line being typed (or cancels the question being asked);
Ctrl-D on an empty line leaves. Nothing a line does ends the loop.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

import platformdirs
from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import Completer, ThreadedCompleter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from rich.console import Console
from rich.text import Text

from opgate.core import Gateway
from opgate.core.help import usage_line

from ._commands import run_line
from ._completer import ReplCompleter
from ._lexer import STYLE, ReplLexer
from ._namespace import Namespace
from ._prompts import Questions, answering_asker, confirming_approver
from ._state import ReplState
from ._vocabulary import NO_SCOPE
from ._suggest import ArgName, ArgValue, suggest

log = logging.getLogger(__name__)

HISTORY_ENV = "OPGATE_REPL_HISTORY"
HISTORY_FILE = "repl_history"


def default_history_path() -> Path:
    """``$OPGATE_REPL_HISTORY``, else ``repl_history`` in opgate's user data folder."""
    override = os.environ.get(HISTORY_ENV)
    return Path(override) if override else Path(platformdirs.user_data_dir("opgate")) / HISTORY_FILE


def _history(path: Path) -> History:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.touch(exist_ok=True)
        return FileHistory(str(path))
    except OSError as exc:
        log.warning("cannot keep the REPL history in %s (%s); it lasts this session only", path, exc)
        return InMemoryHistory()


def _key_bindings() -> KeyBindings:
    bindings = KeyBindings()

    @bindings.add("tab")
    def _complete(event: KeyPressEvent) -> None:
        """Tab inserts the first completion at once and opens the menu; more Tabs cycle (as pgcli)."""
        buffer = event.app.current_buffer
        if buffer.complete_state:
            buffer.complete_next()
        else:
            buffer.start_completion(select_first=True)

    return bindings


def _prompt_message(namespace: Namespace) -> StyleAndTextTuples:
    if not namespace.cwd:
        return [("class:prompt", "opgate> ")]
    return [("class:prompt", "opgate:"), ("class:prompt.path", namespace.cwd), ("class:prompt", "> ")]


def _hint(session: PromptSession, namespace: Namespace) -> str:
    """What the argument at the cursor wants, or the op's usage line."""
    try:
        suggestions = suggest(session.default_buffer.document, namespace)
    except Exception:
        return ""
    for s in suggestions:
        if isinstance(s, ArgValue):
            required = ", required" if s.row.get("required") else ""
            return f"{s.arg} ({s.row.get('type')}{required}): {s.row.get('description', '')}"
        if isinstance(s, ArgName):
            record = namespace.op(s.op)
            return usage_line(record) if record is not None else ""
    return ""


def _toolbar(session: PromptSession, state: ReplState):
    def toolbar() -> str:
        gateway = state.gateway
        status = f" context {gateway.context or NO_SCOPE} | writes {'on' if gateway.allow_write else 'off'} | format {state.format} "
        hint = _hint(session, state.namespace)
        return f"{status}| {hint}" if hint else status

    return toolbar


def run_interactive(gateway: Gateway, console: Console, history_path: Path, *, verbose: bool = False) -> int:
    """Read, run and print until Ctrl-D or ``quit``; always 0."""
    namespace = Namespace(gateway)
    # A first prompt with nothing above it leaves a newcomer (or an audience) guessing what to type.
    total = gateway.help_tree.root.total
    console.print(Text(f"opgate repl · {total} op{'' if total == 1 else 's'} · help lists the commands · Tab completes · Ctrl-D leaves", style="dim"))
    for problem in gateway.registry.problems:
        # A server that did not start leaves its ops out: said before the first prompt, not discovered by a NOT_FOUND.
        if problem.source == "upstreams" or problem.source.startswith("upstream "):
            console.print(Text(f"{problem.source}: {problem.message}", style="yellow"))
    questions = Questions()
    session: PromptSession[str] = PromptSession(
        history=_history(history_path),
        auto_suggest=AutoSuggestFromHistory(),
        completer=ThreadedCompleter(ReplCompleter(namespace)),
        complete_while_typing=True,
        lexer=ReplLexer(),
        style=STYLE,
        key_bindings=_key_bindings(),
    )
    state = ReplState(gateway, console, namespace, read_line=questions.read_line, history_lines=lambda: session.history.get_strings(), verbose=verbose)

    def ask(message: str, completer: Completer | None = None) -> str | None:
        state.asking = True
        try:
            return questions.ask(message, completer)
        finally:
            state.asking = False

    state.ask = ask
    session.bottom_toolbar = _toolbar(session, state)
    previous_approver, previous_asker = gateway.approver, gateway.asker
    gateway.approver = confirming_approver(console, ask)
    gateway.asker = answering_asker(console, ask)
    try:
        while state.running:
            try:
                line = session.prompt(lambda: _prompt_message(namespace), default=state.next_line)
                state.next_line = ""
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            run_line(state, line)
    finally:
        gateway.approver, gateway.asker = previous_approver, previous_asker
    console.print(Text("bye", style="dim"))
    return 0
