"""The command table and the commands that browse: help, ls, cd, search, set, history, quit.

:func:`run_line` is the loop's only way in: it never raises, and answers
whether the line succeeded (scripts exit non-zero when one did not).
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from rich.console import Group
from rich.text import Text

from opgate.core.call_history import HistoryFilter, args_text, outcome_text, when_text
from opgate.core.echo_text import quoted
from opgate.views import render_help

from ._calls import run_batch, run_dry, run_exec
from ._namespace import ROOT
from ._render import numbered, problem, rows_table, search_results
from ._render import listing as listing_view
from ._state import ReplState
from ._vocabulary import COMMANDS, NO_SCOPE, SETTING_ALIASES, SETTINGS, setting_values

Handler = Callable[[ReplState, str], bool]

DEFAULT_HISTORY = 20
HISTORY_SCAN = 500  # calls a filtered "history calls" looks through


def _closest(word: str, names) -> list[str]:
    return difflib.get_close_matches(word, list(names), n=3, cutoff=0.5)


def _path_problem(state: ReplState, text: str, what: str) -> bool:
    payload = state.gateway.help(state.namespace.guess(text))
    hints = [] if payload.get("ok") else (payload.get("error") or {}).get("hints") or []
    state.show(problem(f"there is no {what} {quoted(text)} here ({state.namespace.cwd or 'the root'})", hints, ""))
    return False


def help_command(state: ReplState, rest: str) -> bool:
    if not rest:
        payload = state.gateway.help(state.namespace.cwd)
        commands = Text("commands: " + ", ".join(COMMANDS) + "  (help COMMAND for one)", style="dim")
        state.show(Group(render_help(payload, help_command="help"), commands))
        return bool(payload.get("ok"))
    tried = [state.gateway.help(path) for path in state.namespace.candidates(rest)]
    found = next((payload for payload in tried if payload.get("ok")), None)
    if found is None and rest in COMMANDS:
        state.show(Text(COMMANDS[rest]))
        return True
    state.show(render_help(found or state.gateway.help(state.namespace.guess(rest)), help_command="help"))
    return found is not None


def ls_command(state: ReplState, rest: str) -> bool:
    path = state.namespace.group(rest or ".")
    if path is None:
        return _path_problem(state, rest, "group")
    state.show(listing_view(state.namespace.node(path)))
    return True


def cd_command(state: ReplState, rest: str) -> bool:
    path = state.namespace.group(rest or ROOT)
    if path is None:
        record = state.namespace.op(rest)
        if record is not None:
            state.show(problem(f"{record.op} is an op, not a group: `help {rest}` reads it, `exec {rest}` runs it"))
            return False
        return _path_problem(state, rest, "group")
    state.namespace.cwd = path
    return True


def search_command(state: ReplState, rest: str) -> bool:
    if not rest:
        state.show(problem("search what? search TEXT, e.g. search list open tasks"))
        return False
    payload = state.gateway.search(rest, limit=10)
    state.show(search_results(payload))
    state.next_line = suggested_call(payload)
    if state.next_line:
        state.show(Text(f"next line filled in: {state.next_line}", style="dim"))
    return bool(payload.get("ok"))


def suggested_call(payload: dict) -> str:
    """``exec OP key=value `` for the top pointer when it carries suggested arguments, else ""."""
    results = (payload.get("results") or []) if payload.get("ok") else []
    if not results or not results[0].get("suggested_args"):
        return ""
    args = " ".join(f"{key}={value}" for key, value in results[0]["suggested_args"].items())
    return f"exec {results[0]['op']} {args} "


def _settings_view(state: ReplState) -> Text:
    gateway = state.gateway
    return Text(
        f"writes {'on' if gateway.allow_write else 'off'}   context {gateway.context or NO_SCOPE}   "
        f"format {state.format}   verbose {'on' if state.verbose else 'off'}"
    )


def set_command(state: ReplState, rest: str) -> bool:
    name, _, value = rest.partition(" ")
    value = value.strip()
    if not name:
        state.show(_settings_view(state))
        return True
    name = SETTING_ALIASES.get(name, name)
    if name not in SETTINGS:
        state.show(problem(f"there is no setting {quoted(name)}", _closest(name, SETTINGS) or list(SETTINGS), "set"))
        return False
    choices = setting_values(name, state.gateway.contexts.names)
    if value not in choices:
        state.show(problem(f"set {name} takes {'|'.join(choices)}, not {quoted(value)}", _closest(value, choices)))
        return False
    if name == "writes":
        state.gateway.allow_write = value == "on"
    elif name == "verbose":
        state.verbose = value == "on"
    elif name == "format":
        state.format = value
    else:
        state.gateway.set_context(None if value == NO_SCOPE else value)
        state.namespace.refresh()
    state.show(_settings_view(state))
    return True


def history_command(state: ReplState, rest: str) -> bool:
    words = rest.split()
    calls = bool(words) and words[0] == "calls"
    if calls:
        return _history_calls(state, words[1:])
    count_text = words[0] if words else str(DEFAULT_HISTORY)
    if not count_text.isdigit():
        state.show(problem(f"history takes a number of lines, not {quoted(count_text)}", help_path="history"))
        return False
    count = int(count_text)
    lines = state.past_lines()
    start = max(0, len(lines) - count)
    state.show(numbered([(start + i + 1, line) for i, line in enumerate(lines[start:])]))
    return True


def _ms(duration: Any) -> str | None:
    return f"{duration:.1f}" if isinstance(duration, (int, float)) else None


def _history_calls(state: ReplState, words: list[str]) -> bool:
    """``history calls [N] [op:PART] [is:OUTCOME] [words]``: the newest calls, with their arguments, filtered."""
    count = int(words.pop(0)) if words and words[0].isdigit() else DEFAULT_HISTORY
    wanted = HistoryFilter.parse(" ".join(words))
    if wanted.problems:
        state.show(problem(wanted.problems[0], help_path="history"))
        return False
    # A filter looks further back than the rows it shows.
    recent = state.gateway.recent_calls(max(count, HISTORY_SCAN) if wanted else count)
    try:
        # The log keeps bare ids: the store names the entities they are, for the rows and for the filter's words.
        names = state.gateway.id_names(*(call.get("args") for call in recent))
    except Exception:  # noqa: BLE001 - names are a help: the calls are listed without them
        names = {}
    rows = [
        # The time as the explorer's history shows it: a whole ISO stamp left no room for the time of day at 80 columns.
        {"when (UTC)": when_text(call), "op": call.get("op"), "args": args_text(call.get("args"), 60, names),
         "mode": "dry-run" if call.get("dry_run") else "run", "outcome": outcome_text(call), "ms": _ms(call.get("duration_ms"))}
        for call in wanted.apply(recent, names)[:count]
    ]
    state.show(rows_table(rows) if rows else Text("no calls match" if wanted else "no calls yet", style="dim"))
    return True


def quit_command(state: ReplState, rest: str) -> bool:
    state.running = False
    return True


HANDLERS: dict[str, Handler] = {
    "help": help_command,
    "ls": ls_command,
    "cd": cd_command,
    "exec": run_exec,
    "dry": run_dry,
    "search": search_command,
    "batch": run_batch,
    "history": history_command,
    "set": set_command,
    "quit": quit_command,
}
ALIASES = {"exit": "quit", "?": "help"}


def _unknown(state: ReplState, name: str) -> bool:
    record = state.namespace.op(name)
    if record is not None:
        state.show(problem(f"unknown command {name!r}; to run that op: exec {name} ...", help_path=record.op))
    else:
        closest = _closest(name, COMMANDS)
        message = f"unknown command {quoted(name)}" + ("" if closest else "; the commands are " + ", ".join(COMMANDS))
        state.show(problem(message, closest, ""))
    return False


def rerun_line(state: ReplState, line: str) -> str | None:
    """``!N`` is line N of ``history`` (``!!`` the one before this); None (and a message) when there is no such line."""
    wanted = line.strip()[1:]
    lines = state.past_lines()
    if lines and lines[-1].strip() == line.strip():
        lines = lines[:-1]  # the history already holds this very line
    if wanted == "!":
        wanted = str(len(lines))
    if not wanted.isdigit() or not 1 <= int(wanted) <= len(lines):
        state.show(problem(f"!{wanted}: no such history line; `history` numbers them (1 to {len(lines)})", help_path="history"))
        return None
    again = lines[int(wanted) - 1]
    for _ in range(len(lines)):  # "!!" after "!2" means line 2 again, as in a shell
        if not again.lstrip().startswith("!"):
            break
        target = again.strip()[1:]
        index = len(lines[: lines.index(again)]) if target == "!" else int(target) if target.isdigit() else 0
        if not 1 <= index <= len(lines):
            break
        again = lines[index - 1]
    if again.lstrip().startswith("!"):
        state.show(problem(f"!{wanted} leads to {again.strip()}, which names no line", help_path="history"))
        return None
    state.show(Text(f"again: {again}", style="dim"))
    return again


def run_line(state: ReplState, line: str) -> bool:
    """Run one line; print whatever goes wrong, readably; answer whether it succeeded."""
    if line.strip().startswith("!"):
        again = rerun_line(state, line)
        return again is not None and run_line(state, again)
    parts = line.strip().split(None, 1)
    if not parts or parts[0].startswith("#"):
        return True
    name = ALIASES.get(parts[0], parts[0])
    rest = parts[1].strip() if len(parts) > 1 else ""
    handler = HANDLERS.get(name)
    if handler is None:
        return _unknown(state, parts[0])
    try:
        return handler(state, rest)
    except KeyboardInterrupt:
        state.show(Text("cancelled", style="yellow"))
        return False
    except Exception as exc:  # the loop outlives every error; show it, never a traceback
        detail = f"{type(exc).__name__}: {exc}" if state.verbose else str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        state.show(problem(f"{name} failed: {detail}", help_path=name))
        return False
