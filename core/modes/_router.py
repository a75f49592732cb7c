"""Answering a model's tool call, whatever mode offered the tool.

Gateway tools (help, exec, batch, search), the hybrid lane's generic pair
(list_tools, run_tool) and typed op tools (``onto__task__list``) all end in
the Gateway; nothing here runs an op another way. Arguments are checked here
because some hosts (the MCP SDK among them) pass unknown ones through.

The loop guard: when the same help or read call comes a third time in a row,
the answer says so and says what to do instead.
"""

from __future__ import annotations

import json
from typing import Any

from ..discovery import PROTOCOL_SCHEMAS
from ..exec._envelope import failure
from ._arguments import absent_nulls, check_arguments, is_envelope_error
from ._gateway_tools import BATCH_SCHEMA, EXEC_SCHEMA, HELP_SCHEMA, SEARCH_SCHEMA

LOOP_THRESHOLD = 3
# The discovery protocol's operations, for hosts that speak it instead of the gateway tools.
PROTOCOL_CALLS = tuple(PROTOCOL_SCHEMAS)
_SCHEMAS = {"help": HELP_SCHEMA, "exec": EXEC_SCHEMA, "batch": BATCH_SCHEMA, "search": SEARCH_SCHEMA}


class ToolRouter:
    """Routes tool calls to a Gateway. One router per session: the loop guard counts per router."""

    def __init__(self, gateway: Any):
        self.gateway = gateway
        self.inspected: list[str] = []  # ops the model asked about, newest last (for typed-lane promotion)
        self._gateway_calls = {"help": self._help, "exec": self._exec, "batch": self._batch, "search": self._search}

    def call(self, name: str, arguments: Any = None) -> Any:
        """The answer to one tool call: a help payload, an envelope, or a list of envelopes."""
        schema = _SCHEMAS.get(name)
        if schema is not None:
            checked = check_arguments(name, arguments, schema)
            if is_envelope_error(checked):
                return checked
            return self._gateway_calls[name](checked)
        record = self._typed_op(name)
        if record is not None:
            # A strict export's null for an optional argument means "not given".
            return self._guarded_exec(record.op, absent_nulls(arguments, record.parameters) if arguments is not None else {})
        from ._hybrid import generic_call

        answer = generic_call(self, name, arguments)
        if answer is not None:
            return answer
        if name in PROTOCOL_CALLS:
            return self._protocol(name, arguments)
        return failure(name, "NOT_FOUND", f"There is no tool {name!r}. Use help or search to find an op, then exec it.", help_path="root")

    def _typed_op(self, name: str):
        # Only exported op names: a catalogue tool called "list" must not take over the protocol's list.
        record = self.gateway.registry.get(name) or self.gateway.registry.resolve_exported(name)
        return record if record is not None and self.gateway.is_visible(record.op) else None

    def _note_inspected(self, op: str) -> None:
        if op in self.inspected:
            self.inspected.remove(op)
        self.inspected.append(op)

    def _repeats(self, kind: str, payload: Any) -> int:
        signature = kind + json.dumps(payload, sort_keys=True, default=str)
        return self.gateway.session.note_call(signature)

    def _help(self, arguments: dict[str, Any]) -> dict[str, Any]:
        answer = self.gateway.help(**arguments)
        if answer.get("type") == "op":
            self._note_inspected(answer["op"])
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
        )

    def _guarded_exec(self, op: Any, args: Any, **options: Any) -> dict[str, Any]:
        envelope = self.gateway.exec(op, args, **options)
        record = self.gateway.registry.resolve(op) if isinstance(op, str) else None
        if envelope.get("ok") and record is not None and record.kind == "read":
            if self._repeats("exec", {"op": record.op, "args": args}) >= LOOP_THRESHOLD:
                envelope["meta"]["warnings"].append(
                    f"This exact read was made {LOOP_THRESHOLD} times in a row and returned the same data. "
                    "Use the result you have, change the arguments, or move on to the next step."
                )
        return envelope

    def _protocol(self, name: str, arguments: Any) -> dict[str, Any]:
        checked = check_arguments(name, arguments, PROTOCOL_SCHEMAS[name])
        if is_envelope_error(checked):
            return checked
        discovery = self.gateway.discovery
        methods = {
            "list": discovery.list,
            "search_tool_by_category": discovery.search_tool_by_category,
            "search_nodes": discovery.search_nodes,
            "expand_tool": discovery.expand_tool,
            "call_tool": discovery.call_tool,
        }
        answer = methods[name](**checked)
        if name == "expand_tool" and answer.get("ok"):
            self._note_inspected(answer["tool_id"])
        return answer

    def _batch(self, arguments: dict[str, Any]) -> list[dict[str, Any]]:
        return self.gateway.batch(arguments["steps"], on_error=arguments.get("on_error", "stop"))

    def _search(self, arguments: dict[str, Any]) -> dict[str, Any]:
        return self.gateway.search(**arguments)
