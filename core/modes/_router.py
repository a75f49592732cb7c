"""Answering a model's tool calls, whatever mode offered the tools.

Gateway tools (help, exec, batch, search), the hybrid lane's generic pair
(list_tools, run_tool), typed op tools (``onto__task__list``) and the
discovery protocol's operations all end in the Gateway; nothing here runs an
op another way. Arguments are checked here because some hosts (the MCP SDK
among them) pass unknown ones through.

A router is one caller's view of a shared Gateway: it carries that caller's
:class:`~opgate.core.exec.Session` (remembered ids, idempotency scope, loop
guard, inspected ops) and the mode the caller was offered, so several
callers can share one Gateway without sharing state.

The loop guard: when the same help or read call comes a third time in a row,
the answer says so and says what to do instead. A malformed call repeated
unchanged gets a retry hint that counts the attempts and, past a bound, tells
the model to stop retrying it.
"""

from __future__ import annotations

import itertools
import json
from typing import Any

from ..discovery import PROTOCOL_SCHEMAS
from ..echo_text import quoted
from ..exec._envelope import failure
from ..exec._session import Session
from ..telemetry._recorder import calls_made_within
from ._arguments import absent_nulls, check_arguments, is_envelope_error
from ._gateway_tools import BATCH_SCHEMA, EXEC_SCHEMA, HELP_SCHEMA, SEARCH_SCHEMA
from ._spec import ToolSpec

LOOP_THRESHOLD = 3
RETRY_LIMIT = 3
"""Identical malformed calls that get a "fix it this way" hint; later ones are told to stop."""
ROUTER_MODES = ("gateway", "hybrid", "full", "deferred", "protocol")
# The discovery protocol's operations, for hosts that speak it instead of the gateway tools.
PROTOCOL_CALLS = tuple(PROTOCOL_SCHEMAS)
GATEWAY_CALLS = ("help", "exec", "batch", "search")
GENERIC_CALLS = ("list_tools", "run_tool")
_SCHEMAS = {"help": HELP_SCHEMA, "exec": EXEC_SCHEMA, "batch": BATCH_SCHEMA, "search": SEARCH_SCHEMA}
# What a model that called a tool its mode does not offer is told to use instead.
_CORRECTIONS = {
    "gateway": "Use search or help to find the op, then exec it (help, search, exec and batch are the tools).",
    "hybrid": "Call list_tools (query=...) to find the op, then run_tool with its name and arguments; "
              "the only typed tools are the ones in the tool list.",
    "full": "Every op is a tool of its own, named like onto__task__list: pick one from the tool list.",
    "deferred": "Every op is a tool of its own, named like onto__task__list: search the tool list for it.",
    "protocol": "Call search_tool_by_category (query=...) to find the tool, expand_tool for its schema, then call_tool.",
}
_MALFORMED = ("VALIDATION_ERROR", "NOT_FOUND")
# The tools each mode answers by name (typed op tools aside); None: every mode's.
_NAMED_CALLS: dict[str | None, tuple[str, ...]] = {
    "gateway": GATEWAY_CALLS, "hybrid": GENERIC_CALLS, "protocol": PROTOCOL_CALLS, "full": (), "deferred": (),
    None: GATEWAY_CALLS + GENERIC_CALLS + PROTOCOL_CALLS,
}


class ToolRouter:
    """Routes one caller's tool calls to a Gateway.

    ``mode`` is what the caller was offered (one of ``ROUTER_MODES``): a call
    to a tool that mode does not offer gets a correction naming the tools it
    does. ``None`` answers every tool of every mode (for hosts that mix
    them). ``session`` is the caller's state; by default the gateway's own,
    which suits a host with one caller.
    """

    def __init__(self, gateway: Any, *, mode: str | None = None, session: Session | None = None):
        if mode is not None and mode not in ROUTER_MODES:
            raise ValueError(f"mode is one of {', '.join(ROUTER_MODES)}, not {mode!r}")
        self.gateway = gateway
        self.mode = mode
        self.session = session if session is not None else gateway.session
        self._gateway_calls = {"help": self._help, "exec": self._exec, "batch": self._batch, "search": self._search}

    @property
    def inspected(self) -> list[str]:
        """Ops whose schema this caller has read, newest last (the hybrid lane promotes them)."""
        return self.session.inspected

    def tools(self, turn: str | None = None) -> list[ToolSpec]:
        """The tools this caller is offered now; in hybrid, the lane follows ``turn`` and the inspected ops."""
        if self.mode == "protocol":
            from ._protocol_tools import PROTOCOL_TOOLS

            return list(PROTOCOL_TOOLS)
        from ._export import mode_tools

        return mode_tools(self.gateway, self.mode or "gateway", router=self, turn=turn)

    def call(self, name: str, arguments: Any = None) -> Any:
        """The answer to one tool call: a help payload, an envelope, or a list of envelopes.

        Every call is recorded by telemetry under this caller's session, with
        the lane it came through (see :mod:`opgate.core.telemetry`), refused
        ones included.
        """
        with calls_made_within(None, self._lane_of(name), session=self.session):
            answer = self._answer(name, arguments)
        if isinstance(answer, dict) and answer.get("ok") is False:
            self._hint_retry(name, arguments, answer)
        return answer

    def _answer(self, name: Any, arguments: Any) -> Any:
        if not isinstance(name, str) or not self.offers(name):
            return self._refused("unknown_tool", self._unknown_tool(name), subject=name if isinstance(name, str) else "")
        schema = _SCHEMAS.get(name)
        if schema is not None:
            checked = check_arguments(name, arguments, schema, text_object="args" if name == "exec" else None)
            if is_envelope_error(checked):
                return self._refused(name, checked)
            return self._gateway_calls[name](checked)
        if name in GENERIC_CALLS:
            from ._hybrid import generic_call

            return generic_call(self, name, arguments)
        if name in PROTOCOL_CALLS:
            return self._protocol(name, arguments)
        record = self._typed_op(name)
        # A strict export's null for an optional argument means "not given".
        return self._guarded_exec(record.op, absent_nulls(arguments, record.parameters) if arguments is not None else {})

    def _lane_of(self, name: Any) -> str | None:
        if name in GATEWAY_CALLS:
            return "gateway"
        if name in GENERIC_CALLS:
            return "generic"
        if name in PROTOCOL_CALLS:
            return "protocol"
        return "typed" if isinstance(name, str) and self._typed_op(name) is not None else None

    def _refused(self, kind: str, answer: dict[str, Any], *, subject: Any = "") -> dict[str, Any]:
        """Record a call refused before it reached the gateway (its arguments did not fit, or no such tool)."""
        with self.gateway.telemetry.step(kind, self.session, subject) as step:
            step.answered(answer)
        return answer

    def offers(self, name: str) -> bool:
        """Whether this caller's mode answers ``name`` (typed op names: any visible op, in or out of the lane)."""
        if name in _NAMED_CALLS[self.mode]:
            return True
        return self.mode in (None, "hybrid", "full", "deferred") and self._typed_op(name) is not None

    def _unknown_tool(self, name: Any) -> dict[str, Any]:
        shown = name if isinstance(name, str) else ""
        correction = _CORRECTIONS.get(self.mode or "gateway")
        close = self.gateway.registry.closest(shown) if shown else []
        if close and self.mode in (None, "gateway", "protocol"):
            correction += f" Did you mean the op {close[0]!r}?"
        return failure(
            shown, "NOT_FOUND", f"There is no tool {quoted(shown)}. {correction}", help_path="root",
            unknown_tool=True, correction=correction, suggestions=close or None,
        )

    def _typed_op(self, name: str):
        # Only exported op names: a catalogue tool called "list" must not take over the protocol's list.
        record = self.gateway.registry.get(name) or self.gateway.registry.resolve_exported(name)
        return record if record is not None and self.gateway.is_visible(record.op) else None

    def _repeats(self, kind: str, payload: Any) -> int:
        return self.session.note_call(kind + _signature(payload))

    def _hint_retry(self, name: str, arguments: Any, answer: dict[str, Any]) -> None:
        """Count identical malformed calls; from the second, say so, and past the bound, say to stop."""
        error = answer.get("error")
        if not isinstance(error, dict) or error.get("code") not in _MALFORMED:
            return
        attempt = self._repeats("malformed:" + str(name), arguments)
        if attempt < 2:
            return
        if attempt <= RETRY_LIMIT:
            hint = f"Attempt {attempt} of {RETRY_LIMIT} with these same arguments, and it failed the same way: change what the error names before calling again."
        else:
            hint = (
                f"This exact call has failed {attempt} times; sending it again unchanged cannot work. "
                "Read the op's schema first (help, list_tools with detail 'schema', or expand_tool), or ask the user."
            )
        error["retry"] = {"attempt": attempt, "limit": RETRY_LIMIT, "hint": hint, "stop": attempt > RETRY_LIMIT}

    def _help(self, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = self.gateway.help(**arguments)
        if answer.get("type") == "op":
            self.session.note_inspected(answer["op"])
        if self._repeats("help", arguments) >= LOOP_THRESHOLD:
            target = answer.get("op") or answer.get("path") or "the op"
            answer["loop_guard"] = (
                f"This help call was made {LOOP_THRESHOLD} times in a row and its answer does not change. "
                f"Call exec with {target!r} and arguments from the usage above, or search for another op."
            )
        return answer

    def _exec(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return self._guarded_exec(
            arguments["op"], arguments.get("args"), dry_run=bool(arguments.get("dry_run", False)),
            idempotency_key=arguments.get("idempotency_key"), state_digest=arguments.get("state_digest"),
            id_seed=arguments.get("id_seed"),
        )

    def _guarded_exec(self, op: Any, args: Any, **options: Any) -> dict[str, Any]:
        envelope = self.gateway.exec(op, args, session=self.session, **options)
        record = self.gateway.registry.resolve(op) if isinstance(op, str) else None
        if envelope.get("ok") and record is not None and record.kind == "read":
            if self._repeats("exec", {"op": record.op, "args": args}) >= LOOP_THRESHOLD:
                envelope["meta"]["warnings"].append(
                    f"This exact read was made {LOOP_THRESHOLD} times in a row and returned the same data. "
                    "Use the result you have, change the arguments, or move on to the next step."
                )
        return envelope

    def _protocol(self, name: str, arguments: Any) -> dict[str, Any]:
        checked = check_arguments(name, arguments, PROTOCOL_SCHEMAS[name], text_object="arguments" if name == "call_tool" else None)
        if is_envelope_error(checked):
            return self._refused(name, checked)
        discovery = self.gateway.discovery_for(self.session)
        methods = {
            "list": discovery.list,
            "search_tool_by_category": discovery.search_tool_by_category,
            "search_nodes": discovery.search_nodes,
            "expand_tool": discovery.expand_tool,
            "call_tool": discovery.call_tool,
        }
        answer = methods[name](**checked)
        if name == "expand_tool" and answer.get("ok"):
            self.session.note_inspected(answer["tool_id"])
        return answer

    def _batch(self, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        return self.gateway.batch(arguments["steps"], on_error=arguments.get("on_error", "stop"), session=self.session)

    def _search(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.gateway.search(**arguments)


_UNSORTABLE = itertools.count()


def _signature(payload: Any) -> str:
    """The same text for the same call; a payload JSON cannot sort (a Python caller's non-string key) is never a repeat."""
    try:
        return json.dumps(payload, sort_keys=True, default=str)
    except (TypeError, ValueError, RecursionError):
        return f"unsortable:{next(_UNSORTABLE)}"
