"""tools/call without the SDK's second look at opgate's own answer.

The SDK handles a request in two halves: it checks what the client sent
(the protocol version's request schema, the handshake gate), then builds a
``CallToolResult`` from the handler's return, dumps it, validates the dump
against the version's result schema and dumps it again. The second half
only re-checks a shape opgate built itself: ``tool_result_wire`` writes that
shape directly, and is tested to equal the SDK's output for every protocol
version.

This middleware runs inside the SDK's chain (after its OpenTelemetry span,
under its dispatcher, so cancellation and errors are the SDK's) and takes
only plain calls: ``name``, ``arguments`` and ``_meta``, on a connection
past its handshake, that the client's own request schema accepts. Anything
else (a resumed confirmation, a call that will wait for one, a malformed
request, a client with no identity) goes the SDK's whole way, which answers
it as before.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp_types import methods as _methods

from ._tools import tool_result_wire

PLAIN_KEYS = frozenset({"name", "arguments", "_meta"})

Answer = Callable[[ServerRequestContext[Any, Any], str, Any], Awaitable[Any]]
"""Runs a call and gives the gateway's answer (an envelope, a payload or a batch's steps)."""


def is_plain(params: Mapping[str, Any] | None) -> bool:
    return isinstance(params, Mapping) and params.keys() <= PLAIN_KEYS and isinstance(params.get("name"), str)


class ToolCallPath:
    """Server middleware answering plain tools/call requests with their wire result directly."""

    def __init__(self, takes: Callable[[ServerRequestContext[Any, Any]], bool], answer: Answer, stamp: Callable[[], dict[str, Any]]):
        self._takes = takes
        self._answer = answer
        self._stamp = stamp

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        params = ctx.params
        # client_params is set once the handshake (or a 2026 envelope with client info) opened the connection.
        if ctx.method != "tools/call" or not is_plain(params) or ctx.session.client_params is None or not self._takes(ctx):
            return await call_next(ctx)
        try:
            _methods.validate_client_request("tools/call", ctx.protocol_version, params)
        except Exception:  # the SDK's own path answers a request it refuses, with the error it owes
            return await call_next(ctx)
        assert params is not None
        answer = await self._answer(ctx, params["name"], params.get("arguments"))
        return tool_result_wire(answer, ctx.protocol_version, self._stamp)
