"""The MCP server: the gateway's four tools, answered by the core's ToolRouter.

Built on the SDK's low-level ``Server``: it takes our JSON Schemas as they
are, and lets a tool call answer with structured content, ``isError`` or an
``InputRequiredResult``. Every call runs in a worker thread (exec blocks on
SQLite and, for confirmation, on the person), never on the event loop.

Two Gateways share one registry, store and session: one whose approver asks
the person, for clients that can show an elicitation form, and one without
an approver, so that the core itself refuses confirmation for the others,
with the same words it uses in every front end.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from opgate import __version__
from opgate.core import Gateway
from opgate.core.access import Caller, acting_as
from opgate.core.exec import PERMISSION_DENIED, failure
from opgate.core.modes import ToolRouter, gateway_tools

from ._auth import request_caller
from ._confirmation import ApproverBridge, ConfirmationChannel, ElicitingChannel, can_elicit_form
from ._input_required import PendingCalls, call_fingerprint
from ._tools import listed_tools, tool_result

CONFIRMATION_TIMEOUT = 600.0
"""Seconds a call waits for the person's answer before it is refused."""

INSTRUCTIONS = (
    "opgate: a catalogue of ops behind four tools. search or help to find an op, help on the op for its arguments, "
    "exec to run it (dry_run: true previews a write's diff), batch for several steps."
)

GatewayFactory = Callable[..., Gateway]
"""Builds the server's Gateway from keyword options (``allow_write``, ``approver``); the CLI passes ``make_gateway``."""


def _sibling_without_approver(gateway: Gateway) -> Gateway:
    # The upstreams are shared, not copied: one set of connections, closed with the first gateway.
    return Gateway(
        gateway.base_registry, context=gateway.context, contexts=gateway.contexts, settings=gateway.settings,
        session=gateway.session, store=gateway.store, allow_write=gateway.allow_write, upstreams=gateway.upstreams,
        executors=gateway.executors,  # the same HTTP clients, handler workers and upstream sessions, opened once
    )


class GatewayMCPServer:
    """An MCP server in front of one gateway; ``server`` is the SDK server to run over a transport."""

    def __init__(self, make_gateway: GatewayFactory, *, allow_write: bool = False, confirmation_timeout: float = CONFIRMATION_TIMEOUT):
        self._bridge = ApproverBridge()
        self.gateway = make_gateway(allow_write=allow_write, approver=self._bridge, asker=self._bridge.question)
        self._asking = ToolRouter(self.gateway)
        self._refusing = ToolRouter(_sibling_without_approver(self.gateway))
        self._confirmation_timeout = confirmation_timeout
        # Fixed for the server's life: the spec forbids tools/list from changing per connection or after calls.
        self._tools = listed_tools(gateway_tools(self.gateway))
        self._tool_names = frozenset(tool.name for tool in self._tools)
        self.server: Server[PendingCalls] = Server(
            "opgate", version=__version__, title="opgate", instructions=INSTRUCTIONS, lifespan=self._lifespan,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool,
        )

    def close(self) -> None:
        # The sibling shares the store but has its own call log to write out first.
        self._refusing.gateway.close()
        self.gateway.close()

    @asynccontextmanager
    async def _lifespan(self, _server: Server[Any]) -> AsyncIterator[PendingCalls]:
        # Calls waiting for a 2026-era retry run here, outside the request that started them.
        async with anyio.create_task_group() as task_group:
            pending = PendingCalls(task_group, self._confirmation_timeout)
            try:
                yield pending
            finally:
                pending.refuse_all()

    async def _list_tools(self, ctx: ServerRequestContext[PendingCalls], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        return types.ListToolsResult(tools=self._tools)

    async def _call_tool(self, ctx: ServerRequestContext[PendingCalls], params: types.CallToolRequestParams) -> types.CallToolResult | types.InputRequiredResult:
        name, arguments = params.name, params.arguments
        if name not in self._tool_names:
            raise MCPError(types.INVALID_PARAMS, f"Unknown tool: {name!r}. This server has {', '.join(sorted(self._tool_names))}.")
        pending = ctx.lifespan_context
        caller = request_caller(ctx.request)
        if params.request_state is not None:
            return await self._resume(pending, params, caller)
        capabilities = ctx.session.client_capabilities
        if not can_elicit_form(capabilities):
            return tool_result(await self._run(self._refusing, None, name, arguments, caller))
        if ctx.session.can_send_request:
            channel = ElicitingChannel(ctx.session, ctx.request_id, self._confirmation_timeout)
            return tool_result(await self._run(self._asking, channel, name, arguments, caller))
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            return await pending.start(_fingerprint(caller, name, arguments), lambda call: self._run(self._asking, call, name, arguments, caller))
        return tool_result(await self._run(self._refusing, None, name, arguments, caller))

    async def _resume(self, pending: PendingCalls, params: types.CallToolRequestParams, caller: Caller | None) -> types.CallToolResult | types.InputRequiredResult:
        result = await pending.resume(params.request_state or "", _fingerprint(caller, params.name, params.arguments), params.input_responses)
        if result is not None:
            return result
        # No waiting call: it timed out, was answered already, or the state belongs to another call.
        return tool_result(failure(
            params.name, PERMISSION_DENIED,
            "no call is waiting for this confirmation (it timed out, was answered, or was for other arguments); "
            "nothing was written. Call again to be asked again.",
            help_path="root", requires_confirmation=True,
        ))

    async def _run(self, router: ToolRouter, channel: ConfirmationChannel | None, name: str, arguments: Any, caller: Caller | None = None) -> Any:
        def call_as_caller(tool: str, args: Any) -> Any:
            with acting_as(caller):
                return router.call(tool, args)

        return await anyio.to_thread.run_sync(self._bridge.run_with, channel, call_as_caller, name, arguments)


def _fingerprint(caller: Caller | None, name: str, arguments: Any) -> str:
    # A confirmation is answered only by the caller it was asked of: another token holding the state cannot.
    return call_fingerprint(name, arguments) if caller is None else call_fingerprint(name, {"caller": caller.name, "arguments": arguments})
