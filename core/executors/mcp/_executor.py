"""The executor of one upstream MCP server's ops: ``tools/call`` with the validated arguments.

Dry-run: a tool that says ``readOnlyHint: true``, on a server whose
annotations are trusted, is a ``read`` and really runs (there is nothing to
rehearse). Every other tool is a ``preview``: nothing is sent, and the
dry-run shows the exact request that would be, secrets masked.
"""

from __future__ import annotations

from typing import Any

from ...exec._prepare import Call
from ...exec._session import Session
from .._base import PREVIEW, READ, Invocation, Outcome
from .._redact import mask_known, redact
from ._results import content_annotations, tool_error, tool_result
from ._upstreams import Upstreams


class McpExecutor:
    """Runs ops bound to ``Binding("mcp", upstream=NAME, target=TOOL)`` on upstream NAME."""

    # An upstream keeps no keys of ours: the dispatcher claims and stores them around the call.
    keeps_idempotency = False

    def __init__(self, upstreams: Upstreams, upstream: str):
        self.upstreams = upstreams
        self.upstream = upstream
        self.name = f"mcp:{upstream}"

    def dry_run_kind(self, call: Call) -> str:
        return READ if self.upstreams.is_trusted_read(self.upstream, self._tool(call)) else PREVIEW

    def preview(self, call: Call) -> dict[str, Any]:
        request = {"method": "tools/call", "params": {"name": self._tool(call), "arguments": call.args}}
        return redact({"upstream": self.upstream, "request": request}, self.upstreams.secrets(self.upstream))

    def run(self, invocation: Invocation) -> Outcome:
        call = invocation.call
        tool = self._tool(call)
        answer = self.upstreams.call(self.upstream, tool, call.args, op=call.op, timeout_s=invocation.remaining_s, asker=invocation.ask)
        if answer.is_error:
            raise tool_error(answer, self.upstream, tool)
        # A server may echo its own environment (server-everything's get-env does): configured secrets stay masked.
        meta: dict[str, Any] = {"upstream": self.upstream}
        annotations = content_annotations(answer)
        if annotations:
            meta["content_annotations"] = annotations
        return Outcome(mask_known(tool_result(answer), self.upstreams.secrets(self.upstream)), meta)

    def replay(self, call: Call, session: Session) -> Outcome | None:
        return None

    def close(self) -> None:
        """Nothing to close here: the :class:`Upstreams` hub owns the connections and closes them with the gateway."""

    def _tool(self, call: Call) -> str:
        return call.record.binding.target or call.record.tool_name
