"""What the gateway sends a handler worker, and what each answer becomes.

The result conventions of the authoring guide are applied here, in the
gateway, not in the worker: the worker only reports what the handler did.

- ``{"ok": true, "data": ..., "intents": [...], "meta": {...}}``: success;
  the result is ``data``, and ``intents`` and ``meta`` go to the envelope's
  meta (``intents``, ``tool_meta``);
- ``{"ok": false, "error": {"type", "message", "retryable"}}`` and a raised
  ``ToolError``: an error envelope whose code comes from the error-type table;
- anything else raised, a crash, a return value that is not JSON, or one
  that follows no convention: ``INTERNAL``, with the traceback in the log only.
"""

from __future__ import annotations

import copy
import json
import logging
import re
from typing import Any

from ...exec._errors import InternalError, InvalidArguments
from ...exec._prepare import Call
from .._base import Invocation, Outcome
from ._error_types import handler_failure

log = logging.getLogger("opgate.handler")
_FRAME = re.compile(r'^  File "([^"]+)", line (\d+)', re.M)


def handler_args(call: Call) -> dict[str, Any]:
    """The arguments a handler receives: the call's, with the top-level defaults its schema declares filled in.

    Help shows a parameter's default to the model, which then leaves it out;
    the handler gets the value help promised (``context.args["priority"]``),
    not a missing key.
    """
    properties = call.record.parameters.get("properties")
    if not isinstance(properties, dict):
        return call.args
    missing = {name: copy.deepcopy(schema["default"]) for name, schema in properties.items() if isinstance(schema, dict) and "default" in schema and name not in call.args}
    return {**call.args, **missing} if missing else call.args


def handler_request(invocation: Invocation, *, native_dry_run: bool) -> bytes:
    """The request line for the worker; arguments JSON cannot carry are refused before anything runs."""
    call, record = invocation.call, invocation.call.record
    request = {
        "handler": record.binding.target,
        "args": handler_args(call),
        "dry_run": call.dry_run,
        "session": {"caller": invocation.session.caller, "ids": dict(invocation.session.known)},
        "capabilities": {"writes": record.kind == "write" and not call.dry_run, "dry_run": native_dry_run},
        "meta": {
            "tool_id": record.tool_name,
            "op": call.op,
            "version": record.metadata.version,
            "category": record.metadata.category,
            "timeout_s": invocation.timeout_s,
        },
        "log_level": logging.getLogger(f"opgate.handler.{record.tool_name}").getEffectiveLevel(),
    }
    try:
        return json.dumps(request, allow_nan=False).encode("utf-8") + b"\n"
    except (TypeError, ValueError) as exc:
        raise InvalidArguments(f"the arguments of {call.op} must be JSON values to reach its handler ({exc}); send strings, numbers, booleans, lists and objects") from None


class HandlerError(Exception):
    """A traceback from a handler's worker process, carried as the exception a log record holds.

    The traceback rides in ``exc_info`` rather than in the message, so that a
    log handler decides whether to print it: the command line prints one
    line (``OPGATE_DEBUG=1`` the whole traceback), a server's log keeps it all.
    As ``concurrent.futures`` carries a worker's traceback (``_RemoteTraceback``).
    """

    def __init__(self, traceback: str, summary: str):
        super().__init__(summary)
        self.traceback = traceback

    def __str__(self) -> str:
        return self.args[0]


def _remote_failure(answer: dict[str, Any]) -> BaseException | None:
    text = answer.get("traceback")
    if not isinstance(text, str) or not text.strip():
        return None
    summary = text.strip().splitlines()[-1]
    frames = _FRAME.findall(text)
    if frames:
        summary += f" at {frames[-1][0]} line {frames[-1][1]}"
    failure = HandlerError(text, summary)
    failure.__cause__ = _TracebackText(text)
    return failure


class _TracebackText(Exception):
    """Prints as the worker's traceback: the cause a full log formatter shows above the one-line summary."""

    def __str__(self) -> str:
        return "\n" + str(self.args[0]).rstrip()


def relay_log(frame: dict[str, Any]) -> None:
    """A handler's log record, logged again in the gateway under the handler's logger name."""
    name = frame.get("name") if isinstance(frame.get("name"), str) else "opgate.handler"
    level = frame.get("level") if isinstance(frame.get("level"), int) else logging.INFO
    logging.getLogger(name).log(level, "%s", frame.get("message", ""))


def _broken(call: Call, what: str) -> InternalError:
    return InternalError(f"the handler of {call.op} {what}; the gateway's log has the details", tool=call.record.tool_name)


def _success(call: Call, value: dict[str, Any]) -> Outcome:
    meta: dict[str, Any] = {}
    if value.get("intents") is not None:
        meta["intents"] = value["intents"]
    if value.get("meta") is not None:
        meta["tool_meta"] = value["meta"]
    return Outcome(value.get("data"), meta)


def _returned(call: Call, value: Any) -> Outcome:
    if not isinstance(value, dict) or not isinstance(value.get("ok"), bool):
        shown = type(value).__name__ if not isinstance(value, dict) else "an object without a boolean 'ok'"
        log.error("handler of %s returned %s; it must return {'ok': True, 'data': ...} or {'ok': False, 'error': {...}}", call.op, shown)
        raise InternalError(
            f"the handler of {call.op} returned {shown}, not {{'ok': true, 'data': ...}} or {{'ok': false, 'error': ...}}; its author must fix handler.py",
            tool=call.record.tool_name,
        )
    if value["ok"]:
        return _success(call, value)
    raise handler_failure(value.get("error"), tool=call.op)


def outcome_from_answer(call: Call, answer: dict[str, Any]) -> Outcome:
    """The outcome of one worker answer, or the failure it reports (raised as an ``OpError``)."""
    kind = answer.get("kind")
    if kind == "returned":
        return _returned(call, answer.get("value"))
    if kind == "tool_error":
        raise handler_failure(answer.get("error"), tool=call.op)
    if kind == "not_json":
        log.error("handler of %s returned a value that is not JSON: %s", call.op, answer.get("message"))
        raise InternalError(
            f"the handler of {call.op} returned a value that JSON cannot carry ({answer.get('message')}); results must be JSON (dicts, lists, strings, numbers, booleans, None)",
            tool=call.record.tool_name,
        )
    if kind == "failed" and answer.get("stage") == "import":
        log.error("cannot load the handler of %s: %s", call.op, answer.get("message"), exc_info=_remote_failure(answer))
        raise _broken(call, f"could not be loaded ({answer.get('message')})")
    if kind == "failed":
        log.error("the handler of %s failed", call.op, exc_info=_remote_failure(answer))
        effects = "; it may have done part of its work" if call.record.kind == "write" and not call.dry_run else ""
        raise _broken(call, f"failed unexpectedly ({answer.get('exception')}){effects}")
    log.error("handler worker for %s answered with an unknown frame: %r", call.op, answer)
    raise _broken(call, "answered in a way the gateway does not understand")
