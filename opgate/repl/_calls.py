"""The commands that call ops: ``exec``, ``dry`` and ``batch``.

Arguments are ``key=value`` words read as a shell would (``shlex``) and typed
by the op's schema (``opgate.core.argtext``), or one JSON object, which may
run over several lines. In an interactive session a missing required
argument is asked for, one at a time, with its type and description.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from prompt_toolkit.completion import Completer
from rich.text import Text

from opgate.core import OpRecord, safe_json
from opgate.core.argtext import ArgTextError, parse_key_values, typed_value
from opgate.core.exec._batch_steps import BatchFileError, batch_document
from opgate.core.echo_text import quoted
from opgate.views._envelope_parts import shown_controls

from ._completer import ReplCompleter
from ._prefixed import PrefixedCompleter
from ._prompts import Cancelled
from ._render import problem, render_call
from ._state import ReplState
from ._vocabulary import BATCH_OPTIONS
from ._waiting import said_if_slow
from ._words import shell_split

CONTINUATION = "... "
DRY_RUN_FLAG = "--dry-run"
BATCH_PROMPT = "batch> "


class ArgumentDeclined(Exception):
    """The person declined to give a missing argument."""


def _json_object(state: ReplState, text: str) -> str:
    """``text``, with more lines read while it is an unfinished JSON object."""
    while True:
        try:
            json.loads(text)
            return text
        except json.JSONDecodeError as exc:
            if exc.pos < len(text.rstrip()):
                return text
        except RecursionError:  # complete or not, parse_key_values refuses it with a clear message
            return text
        more = state.read_line(CONTINUATION)
        if more is None or not more.strip():
            return text
        text = f"{text}\n{more}"


def _arguments(state: ReplState, record: OpRecord | None, text: str) -> dict[str, Any]:
    parameters = record.parameters if record is not None else {}
    if text.lstrip().startswith("{"):
        return parse_key_values([_json_object(state, text.strip())], parameters)
    return parse_key_values(shell_split(text), parameters)


def _unquoted(answer: str) -> str:
    """An answer with the quotes a completion may have put around it taken off."""
    if answer[:1] in ("'", '"'):
        try:
            words = shell_split(answer)
        except ArgTextError:
            return answer
        return words[0] if len(words) == 1 else answer
    return answer


def _ask_missing(state: ReplState, record: OpRecord, args: dict[str, Any]) -> dict[str, Any]:
    known = state.gateway.session.known
    properties = record.parameters.get("properties") or {}
    for name in record.required_args:
        if name in args or name in known:
            continue
        row = state.namespace.argument(record, name) or {"type": "any"}
        state.show(Text(f"{name} ({row['type']}, required): {row.get('description', '')}".rstrip(": "), style="cyan"))
        completer: Completer = PrefixedCompleter(ReplCompleter(state.namespace), f"exec {record.op} {name}=")
        answer = state.ask(f"{name}= ", completer) if state.ask else None
        if answer is None or not answer.strip():
            raise ArgumentDeclined(f"cancelled: {record.op} needs {name}")
        args[name] = typed_value(_unquoted(answer.strip()), properties.get(name))
    return args


def _bad_arguments(op: str, record: OpRecord | None, message: str) -> dict[str, Any]:
    help_path = record.op if record else "root"
    return {"op": op, "ok": False, "error": {"code": "VALIDATION_ERROR", "message": message, "details": {"field_errors": []}, "help_path": help_path}}


def _exec(state: ReplState, op: str, args: dict[str, Any], *, dry_run: bool) -> dict[str, Any]:
    """The call; at a prompt, a line when it is still running a moment later (the explorer's bar says it too)."""
    if not state.interactive:
        return state.gateway.exec(op, args, dry_run=dry_run)
    words = Text.assemble(("running ", "dim"), (shown_controls(op), "bold"), ("… (Ctrl-C cancels)", "dim"))

    def say() -> None:
        if not state.asking:  # never over a question on the terminal (a confirmation asked during the call)
            state.show(words)

    with said_if_slow(say):
        return state.gateway.exec(op, args, dry_run=dry_run)


def _call(state: ReplState, rest: str, *, dry_run: bool) -> bool:
    op_text, _, arg_text = rest.partition(" ")
    if not op_text:
        state.show(problem(f"{'dry' if dry_run else 'exec'} what? give an op: {'dry' if dry_run else 'exec'} OP key=value ...", help_path="exec"))
        return False
    if DRY_RUN_FLAG in arg_text.split():
        # The command line's flag (copied from the explorer's "Copy as opgate exec"): here a dry-run is its own command.
        state.show(problem(f"{DRY_RUN_FLAG} is the command line's flag; here, dry-run with: dry {op_text} key=value ... (exec runs for real)", help_path="dry"))
        return False
    record = state.namespace.op(op_text)
    op = record.op if record is not None else state.namespace.guess(op_text)
    try:
        args = _arguments(state, record, arg_text)
        # An argument the op does not take is refused whatever else is typed: asking for a missing one first
        # would take the next line (the person's retry) as its value.
        refused = record is not None and record.parameters.get("additionalProperties") is False and any(
            name not in (record.parameters.get("properties") or {}) for name in args)
        if record is not None and state.interactive and not arg_text.lstrip().startswith("{") and not refused:
            args = _ask_missing(state, record, args)
    except ArgTextError as exc:
        # An unknown op is the first thing to fix: the gateway's NOT_FOUND names the closest ops (a dry-run, so nothing can run).
        envelope = _bad_arguments(op, record, str(exc)) if record is not None else state.gateway.exec(op, {}, dry_run=True)
    except ArgumentDeclined as exc:
        state.show(Text(str(exc), style="yellow"))
        return False
    else:
        envelope = _exec(state, op, args, dry_run=dry_run)
        if state.interactive and ((envelope.get("error") or {}).get("details") or {}).get("cancelled"):
            return True  # the person said no at the confirmation, which said so: not an error (a script that cannot confirm fails)
    state.show(render_call(envelope, state.format, verbose=state.verbose), soft_wrap=not envelope.get("ok") and not state.verbose and not state.interactive)
    return bool(envelope.get("ok"))


def run_exec(state: ReplState, rest: str) -> bool:
    return _call(state, rest, dry_run=False)


def run_dry(state: ReplState, rest: str) -> bool:
    return _call(state, rest, dry_run=True)


# -- batch ----------------------------------------------------------------------


def _step(state: ReplState, line: str) -> dict[str, Any]:
    """One batch step from a line: ``exec OP ...``, ``dry OP ...``, ``help PATH`` or a JSON step."""
    if line.startswith("{"):
        step = safe_json.loads(line, what="the step", check_text=False)
        if not isinstance(step, dict):
            raise ArgTextError(f"a JSON step is an object, not {quoted(line)}")
        return step
    command, _, rest = line.partition(" ")
    if command == "help":
        found = next((p for p in state.namespace.candidates(rest) if state.namespace.node(p) is not None), None)
        return {"tool": "help", "args": {"path": found if found is not None else state.namespace.guess(rest)}}
    if command in ("exec", "dry"):
        op_text, _, arg_text = rest.strip().partition(" ")
        record = state.namespace.op(op_text)
        op = record.op if record is not None else state.namespace.guess(op_text)
        args: dict[str, Any] = {"op": op, "args": _arguments(state, record, arg_text)}
        if command == "dry":
            args["dry_run"] = True
        return {"tool": "exec", "args": args}
    raise ArgTextError(f"{quoted(line)} is not a batch step: write `exec OP key=value ...`, `dry OP ...`, `help PATH` or a JSON step")


def _lines_until_blank(state: ReplState) -> list[str]:
    lines = []
    while (line := state.read_line(BATCH_PROMPT)) is not None and line.strip():
        lines.append(line.strip())
    return lines


def _steps_from_file(state: ReplState, path: str) -> tuple[list[Any], str | None]:
    raw = Path(path).expanduser().read_bytes()
    try:
        data = safe_json.loads(raw, what="the batch file", check_text=False)
    except safe_json.JsonInputError as exc:
        if exc.code != "not_json":
            raise ArgTextError(exc.message) from None
        text = raw.decode("utf-8", errors="surrogateescape")
        lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
        return [_step(state, line) for line in lines], None
    return batch_document(data)  # one reading of a batch document for every front end


def run_batch(state: ReplState, rest: str) -> bool:
    words = shell_split(rest)
    options = dict(w.split("=", 1) for w in words if "=" in w)
    files = [w for w in words if "=" not in w]
    unknown = set(options) - set(BATCH_OPTIONS)
    if unknown or len(files) > 1:
        state.show(problem(f"batch takes one FILE and on_error=stop|continue, not {sorted(unknown) or files}", help_path="batch"))
        return False
    on_error = options.get("on_error")
    try:
        if files:
            steps, file_on_error = _steps_from_file(state, files[0])
            on_error = on_error or file_on_error
        else:
            state.show(Text("one step a line (exec OP ..., dry OP ..., help PATH); a blank line runs them", style="dim"))
            steps = [_step(state, line) for line in _lines_until_blank(state)]
    except (ArgTextError, OSError, safe_json.JsonInputError, BatchFileError) as exc:
        state.show(problem(f"batch not run: {exc}", help_path="batch"))
        return False
    except Cancelled:
        state.show(Text("batch cancelled; nothing ran", style="yellow"))
        return True
    if not steps:
        state.show(Text("no steps; nothing ran", style="yellow"))
        return True
    envelopes = state.gateway.batch(steps, on_error=on_error or "stop")
    for envelope in envelopes:
        state.show(Text(f"step {envelope.get('step', '?')}", style="bold"))
        state.show(render_call(envelope, state.format, verbose=state.verbose), soft_wrap=not envelope.get("ok") and not state.verbose and not state.interactive)
    return all(e.get("ok") for e in envelopes)
