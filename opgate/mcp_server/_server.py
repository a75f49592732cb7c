"""The MCP server: the tools of one mode, answered by the core's ToolRouter.

Built on the SDK's low-level ``Server``: it takes our JSON Schemas as they
are, and lets a tool call answer with structured content, ``isError`` or an
``InputRequiredResult``. Every call runs in a worker thread (exec blocks on
SQLite and, for confirmation, on the person), never on the event loop.

Each client session has its own state (``_clients``): its calls go through
its own routers, over Gateways shared by every client. Two Gateways share
one registry, store and executors: one whose approver asks the person, for
clients that can show an elicitation form, and one without an approver, so
that the core itself refuses confirmation for the others, with the same
words it uses in every front end.

Modes (``ROUTER_MODES``): gateway (help, exec, batch, search), hybrid (a
typed lane per session plus list_tools/run_tool; the lane grows with the ops
the client inspects, and the client is told with ``tools/list_changed``),
full and deferred (one typed tool per op), protocol (the discovery
protocol's five operations).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

import anyio
import anyio.to_thread
import mcp_types as types
from mcp.server import Server, ServerRequestContext
from mcp.server.lowlevel.server import NotificationOptions
from mcp.server.subscriptions import (
    InMemorySubscriptionBus,
    ListenHandler,
    ToolsListChanged,
)
from mcp.shared.exceptions import MCPError
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from opgate import __version__
from opgate.core import Gateway
from opgate.core.access import Caller, acting_as
from opgate.core.exec import IDLE_SECONDS, MAX_SESSIONS, PERMISSION_DENIED, failure, resuming_batch
from opgate.core.executors._progress import ProgressReporter, abandonable, reporting_progress
from opgate.core.modes import ROUTER_MODES, ToolRouter, hybrid_tool_schema

from ._clients import MAX_CALLS, Client, Clients, ConfirmationBudget
from ._auth import request_caller
from ._confirmation import (
    ApproverBridge,
    ConfirmationChannel,
    ElicitingChannel,
    can_elicit_form,
)
from ._progress import progress_to_client
from ._input_required import DeferredChannel, PendingConfirmations, RunCall, call_fingerprint
from ._session_keys import IdentityResolver, scope_identity, session_key
from ._shared_sessions import SharedSessions
from ._tool_call_path import ToolCallPath
from ._tools import listed_tools, tool_result

log = logging.getLogger(__name__)

CONFIRMATION_TIMEOUT = 600.0
"""Seconds a call waits for the person's answer before it is refused."""

INSTRUCTIONS = {
    "gateway": "opgate: a catalogue of ops behind four tools. search or help to find an op, help on the op for its arguments, "
               "exec to run it (dry_run: true previews a write's diff), batch for several steps.",
    "hybrid": "opgate: prefer the typed tools listed. When the op you need is not among them, call list_tools (query=...), "
              "then run_tool with its name and arguments; list_tools with detail 'schema' shows arguments and adds the op to your typed tools.",
    "full": "opgate: one typed tool per op. Read before you write; an op that needs confirmation asks the person.",
    "deferred": "opgate: one typed tool per op, meant to be loaded on demand by the host's tool search.",
    "protocol": "opgate: discover before you call. list or search_tool_by_category to find a tool, expand_tool for its schema, "
                "then call_tool (dry_run: true previews a write). Follow an error's hints and next_action.",
}

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
    """An MCP server in front of one gateway; ``server`` is the SDK server to run over a transport.

    ``mode`` picks the tools offered (see the module). ``identity`` gives the
    caller's identity for a request, folded into its session key (see
    ``_session_keys``). At most ``max_sessions`` client sessions are kept;
    one idle for ``session_idle_seconds`` is forgotten.
    """

    def __init__(
        self, make_gateway: GatewayFactory, *, allow_write: bool = False, confirmation_timeout: float = CONFIRMATION_TIMEOUT,
        mode: str = "gateway", identity: IdentityResolver = scope_identity,
        max_sessions: int = MAX_SESSIONS, session_idle_seconds: float = IDLE_SECONDS,
    ):
        if mode not in ROUTER_MODES:
            raise ValueError(f"mode is one of {', '.join(ROUTER_MODES)}, not {mode!r}")
        self.mode = mode
        self._bridge = ApproverBridge()
        self.gateway = make_gateway(allow_write=allow_write, approver=self._bridge, asker=self._bridge.question)
        refusing = _sibling_without_approver(self.gateway)
        self.clients = Clients(self.gateway, refusing, mode, max_clients=max_sessions, idle_seconds=session_idle_seconds)
        self._refusing_gateway = refusing
        self._identity = identity
        self._confirmation_timeout = confirmation_timeout
        self._budget = ConfirmationBudget()
        self._shared = SharedSessions(lambda: self.gateway.store, session_idle_seconds)
        self._calls_limiter: anyio.CapacityLimiter | None = None
        self._closed = False
        # Outside hybrid, the tools are the same for every client and never change.
        self._fixed_tools = None if mode == "hybrid" else listed_tools(ToolRouter(self.gateway, mode=mode).tools())
        self._fixed_schemas = {tool.name: tool.input_schema for tool in self._fixed_tools or ()}
        self._bus = InMemorySubscriptionBus() if mode == "hybrid" else None
        self.server: Server[PendingConfirmations] = _OpgateServer(
            "opgate", version=__version__, title="opgate", instructions=INSTRUCTIONS[mode], lifespan=self._lifespan,
            on_list_tools=self._list_tools, on_call_tool=self._call_tool,
            get_tool_input_schema=self._tool_input_schema,
            on_subscriptions_listen=ListenHandler(self._bus) if self._bus is not None else None,
        )
        self.server.tools_change = mode == "hybrid"
        # After the SDK's OpenTelemetry span: plain calls skip only the re-check of the result opgate built.
        self.server.middleware.append(ToolCallPath(lambda ctx: not self._defers(ctx), self._answer, lambda: self.server.server_info_stamp))

    def close(self) -> None:
        """Close both gateways once; a second call (the HTTP server's shutdown, then ``serve``'s own) does nothing."""
        if self._closed:
            return
        self._closed = True
        # The sibling shares the store but has its own call log to write out first.
        self._refusing_gateway.close()
        self.gateway.close()

    @asynccontextmanager
    async def _lifespan(self, _server: Server[Any]) -> AsyncIterator[PendingConfirmations]:
        self._calls_limiter = anyio.CapacityLimiter(MAX_CALLS)
        # 2026-era questions wait in the store, where any server process on the workspace can take the answer.
        yield PendingConfirmations(lambda: self.gateway.store, self._confirmation_timeout)

    def _client(self, ctx: ServerRequestContext[Any]) -> Client:
        caller = request_caller(ctx.request)
        # An authenticated caller's sessions log under its token's name and share its idempotency scope.
        return self.clients.get(session_key(ctx.request, self._identity, name=caller.name if caller else None))

    async def _list_tools(self, ctx: ServerRequestContext[PendingConfirmations], params: types.PaginatedRequestParams | None) -> types.ListToolsResult:
        if self._fixed_tools is not None:
            return types.ListToolsResult(tools=self._fixed_tools)
        client = self._client(ctx)
        specs = await anyio.to_thread.run_sync(self._shared.around, client, client.asking.tools)
        client.lane = _typed_names(specs)
        # Each session's lane is its own and changes as it inspects ops: no client may cache or share it.
        return types.ListToolsResult(tools=listed_tools(specs), ttl_ms=0, cache_scope="private")

    def _tool_input_schema(self, name: str) -> dict[str, Any] | None:
        """The input schema of tool ``name``, for the SDK's check of ``Mcp-Param-*`` headers on 2026-07-28 calls.

        Without it the SDK asks our ``tools/list`` on every call: in hybrid
        that would record a lane offer per call and reset the session's lane.
        A tool's schema is the same for every session (a lane decides only
        whether it is offered, and the call is refused later if it is not).
        """
        if self._fixed_tools is not None:
            return self._fixed_schemas.get(name)
        return hybrid_tool_schema(self.gateway, name)

    async def _call_tool(self, ctx: ServerRequestContext[PendingConfirmations], params: types.CallToolRequestParams) -> types.CallToolResult | types.InputRequiredResult:
        name, arguments = params.name, params.arguments
        if params.request_state is not None:
            client = await self._offering(ctx, name, arguments)
            return await self._resume(client, ctx.lifespan_context, params, request_caller(ctx.request), progress_to_client(ctx))
        if self._defers(ctx):
            client = await self._offering(ctx, name, arguments)
            caller = request_caller(ctx.request)
            deferred = await ctx.lifespan_context.start(client.key.caller, _fingerprint(caller, name, arguments), arguments, self._deferred(client, name, caller, progress_to_client(ctx)))
            await self._tell_if_lane_changed(ctx, client)
            return deferred
        return tool_result(await self._answer(ctx, name, arguments))

    def _defers(self, ctx: ServerRequestContext[Any]) -> bool:
        """Whether a call's confirmation question waits in the store (2026-07-28 clients that show forms but take no server requests)."""
        return can_elicit_form(ctx.session.client_capabilities) and not ctx.session.can_send_request and ctx.protocol_version in MODERN_PROTOCOL_VERSIONS

    async def _offering(self, ctx: ServerRequestContext[Any], name: str, arguments: Any) -> Client:
        """The request's client, once the tool is known to be offered to it (else the protocol error that says what is)."""
        client = self._client(ctx)
        if not client.asking.offers(name):
            raise MCPError(types.INVALID_PARAMS, await self._unknown_tool(client, name, arguments))
        return client

    async def _answer(self, ctx: ServerRequestContext[Any], name: str, arguments: Any) -> Any:
        """A call that does not wait in the store: the gateway's answer, asking the person through the client when it can."""
        client = await self._offering(ctx, name, arguments)
        caller = request_caller(ctx.request)
        if can_elicit_form(ctx.session.client_capabilities) and ctx.session.can_send_request:
            channel = ElicitingChannel(ctx.session, ctx.request_id, self._confirmation_timeout, self._budget, client)
            answer = await self._run(client, client.asking, channel, name, arguments, caller, progress=progress_to_client(ctx))
        else:
            answer = await self._run(client, client.refusing, None, name, arguments, caller, progress=progress_to_client(ctx))
        await self._tell_if_lane_changed(ctx, client)
        return answer

    async def _unknown_tool(self, client: Client, name: str, arguments: Any) -> str:
        """The protocol error's words: the tools this client is offered, and what to call instead (with a retry count)."""
        answer = await anyio.to_thread.run_sync(client.asking.call, name, arguments)
        error = answer["error"]
        offered = self._fixed_tools if self._fixed_tools is not None else listed_tools(await anyio.to_thread.run_sync(_probe_tools, client))
        names = [tool.name for tool in offered]
        shown = ", ".join(sorted(names)) if len(names) <= 20 else f"{len(names)} tools"
        retry = error.get("retry", {}).get("hint")
        return f"Unknown tool: {name!r}. This server has {shown}. {error['details']['correction']}" + (f" {retry}" if retry else "")

    async def _tell_if_lane_changed(self, ctx: ServerRequestContext[PendingConfirmations], client: Client) -> None:
        """In hybrid, after a call: when the session's typed lane changed, the client is told to list its tools again."""
        if self.mode != "hybrid" or not client.key.kept:
            return
        lane = _typed_names(await anyio.to_thread.run_sync(_probe_tools, client))
        if lane == client.lane:
            return
        client.lane = lane
        if ctx.protocol_version in MODERN_PROTOCOL_VERSIONS:
            # 2026-07-28 clients hear of it on their subscriptions/listen stream.
            if self._bus is not None:
                await self._bus.publish(ToolsListChanged())
            return
        try:
            await ctx.session.send_notification(types.ToolListChangedNotification(), related_request_id=ctx.request_id)
        except Exception as exc:  # a client that went away misses a hint, nothing more
            log.warning("could not tell the client its tools changed: %s", exc)

    async def _resume(
        self, client: Client, pending: PendingConfirmations, params: types.CallToolRequestParams, caller: Caller | None,
        progress: ProgressReporter | None,
    ) -> types.CallToolResult | types.InputRequiredResult:
        result = await pending.resume(
            client.key.caller, _fingerprint(caller, params.name, params.arguments), params.request_state or "", params.input_responses,
            params.name, params.arguments, self._deferred(client, params.name, caller, progress),
        )
        if result is not None:
            return result
        # No waiting call: it timed out, was answered already, or the state belongs to another call.
        return tool_result(failure(
            params.name, PERMISSION_DENIED,
            "no call is waiting for this confirmation (it timed out, was answered, or was for other arguments); "
            "nothing was written. Call again to be asked again.",
            help_path="root", requires_confirmation=True,
        ))

    def _deferred(self, client: Client, name: str, caller: Caller | None, progress: ProgressReporter | None) -> RunCall:
        """A call whose confirmation waits in the store; ``progress`` goes to the request that runs it (the first, or a resume)."""
        async def run(channel: DeferredChannel, arguments: Any, done: dict[int, dict[str, Any]] | None) -> Any:
            return await self._run(client, client.asking, channel, name, arguments, caller, done, progress=progress)

        return run

    async def _run(
        self, client: Client, router: ToolRouter, channel: ConfirmationChannel | None, name: str, arguments: Any, caller: Caller | None = None,
        done: dict[int, dict[str, Any]] | None = None, *, progress: ProgressReporter | None = None,
    ) -> Any:
        abandoned, finished = threading.Event(), threading.Event()

        def call_as_caller(tool: str, args: Any) -> Any:
            # Worker threads do not inherit the request's context: the caller's role, a resumed batch's steps, where
            # an upstream's progress goes and whether the client gave up are set again here.
            try:
                with acting_as(caller), resuming_batch(done), reporting_progress(progress), abandonable(abandoned):
                    return self._shared.around(client, router.call, tool, args)
            finally:
                finished.set()

        # The client's own slots first: a client at its limit waits for itself, holding nothing others need.
        async with client.calls:
            try:
                return await anyio.to_thread.run_sync(
                    self._bridge.run_with, channel, call_as_caller, name, arguments, limiter=self._calls_limiter, abandon_on_cancel=True,
                )
            except anyio.get_cancelled_exc_class():
                # The client cancelled the request (notifications/cancelled): an upstream call it made is cancelled in
                # turn, so a slow write stops instead of running to its timeout; the client's slot waits for the end.
                abandoned.set()
                with anyio.CancelScope(shield=True):
                    while not finished.is_set():  # a thread's event, looked at (no loop round trip on every call's way out)
                        await anyio.sleep(0.05)
                raise


def _fingerprint(caller: Caller | None, name: str, arguments: Any) -> str:
    # A confirmation is answered only by the caller it was asked of: another token holding the state cannot.
    return call_fingerprint(name, arguments) if caller is None else call_fingerprint(name, {"caller": caller.name, "arguments": arguments})


def _typed_names(specs: Any) -> tuple[str, ...]:
    return tuple(spec.name for spec in specs if spec.op is not None)


class _OpgateServer(Server[PendingConfirmations]):
    """The SDK's server, saying in the handshake whether its tool list can change (hybrid's lane does)."""

    tools_change = False

    def create_initialization_options(self, notification_options: NotificationOptions | None = None, *args: Any, **kwargs: Any) -> Any:
        if notification_options is None and self.tools_change:
            notification_options = NotificationOptions(tools_changed=True)
        return super().create_initialization_options(notification_options, *args, **kwargs)


def _probe_tools(client: Client) -> list:
    """The tools the client would be offered now, without logging an offer: only tools/list offers a lane."""
    with client.asking.gateway.telemetry.unrecorded():
        return client.asking.tools()
