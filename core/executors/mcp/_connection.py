"""One upstream's connection: a ``ClientSession`` held open by one task, reused for every call.

The SDK's transports and sessions are async context managers that must be
entered and exited by the same task, so :meth:`Connection._hold` enters
them, publishes the session, and waits until it is told to close (or the
server goes away). Callers on the loop share that session.

A stdio server that exits closes its output; a watcher on the read stream
sees that and ends the session at once, so the next call starts a fresh
server instead of writing into a dead pipe. Failed starts back off
(0.5 s, 1 s, 2 s ... up to a minute): during the wait calls fail fast,
retryable, saying when the next try will be.

This module imports the SDK; :mod:`.` imports it only when a connection is
first needed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import os
import time
from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED
from pydantic import ValidationError

from .._base import MAX_ANSWER_BYTES
from .._redact import mask_url_secrets, redact
from ._config import HTTP, UpstreamConfig
from ._http_answers import AnswerWatch, bound_answer, quiet_cuts, stop_watching, watching
from ._listing import list_tools_page
from ._questions import PendingCall, QuestionRouter
from ._session_streams import owning, stderr_sink, watch_end
from ._stderr_tail import StderrTail
from ._stdio import bounded_stdio_client
from ._unreadable import first_reason, unreadable_error, unreadable_reason

log = logging.getLogger("opgate.upstreams")

CLIENT_INFO = types.Implementation(name="opgate", version="0.1.0")
FIRST_BACKOFF_S = 0.5
START_TIMEOUT_S = 120.0
"""How long a server may take to answer ``initialize`` (``npx -y`` may install it first); then the start fails and backs off."""
_LAST_WORDS_S = 0.5
"""How long a call whose server died waits for the rest of its stderr (its last words usually come as it exits)."""
MAX_LISTED_TOOLS = 10_000
"""The most tools one upstream may list: far past any real server's, and a bound on a listing that never ends."""
MAX_BACKOFF_S = 60.0


class UpstreamDown(Exception):
    """The upstream could not be reached, or went away; the message names it and says what happened."""


class AnswerTooLarge(Exception):
    """The upstream sent a message past :data:`MAX_ANSWER_BYTES`: it was not read, and the session ended with it."""


class CallTimedOut(Exception):
    """The upstream did not answer within the call's time; the request was cancelled."""

    def __init__(self, budget_s: float):
        super().__init__(f"did not finish within {budget_s:.3g} s")
        self.budget_s = budget_s


class _FormOnlySession(ClientSession):
    """A ClientSession that declares only form elicitation.

    The SDK advertises form and URL elicitation whenever an elicitation
    callback is given; opgate can put a form to a person but cannot open a
    URL for them, and a client must not claim what it cannot do.
    """

    def _build_capabilities(self, version: str) -> types.ClientCapabilities:
        capabilities = super()._build_capabilities(version)
        if capabilities.elicitation is not None:
            capabilities = capabilities.model_copy(update={"elicitation": types.ElicitationCapability(form=types.FormElicitationCapability())})
        return capabilities


class Connection:
    """The session with one upstream, on the gateway's upstream loop.

    ``on_tools_changed`` is awaited when the server says its tools changed;
    ``questions`` routes the server's elicitation requests to the call that
    caused them.
    """

    def __init__(self, config: UpstreamConfig, *, on_tools_changed: Callable[[], Awaitable[None]], questions: QuestionRouter):
        self.config = config
        self.questions = questions
        self._on_tools_changed = on_tools_changed
        self.session: ClientSession | None = None
        self.protocol_version: str | None = None
        self.server_name: str | None = None
        self.state = "not connected"
        self.last_error: str | None = None
        self.starts = 0
        self._failures = 0
        self._retry_at = 0.0
        self._ready: asyncio.Future[ClientSession] | None = None
        self._stop: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self._closing = False
        self._too_large: int | None = None  # the size of the message that ended this session, if one did
        self._stderr: StderrTail | None = None  # the running (or last) stdio server process's stderr
        self.refused_tools: list[tuple[str, str]] = []  # (name, why) of the last listing's tools that MCP's Tool does not fit

    # -- opening -------------------------------------------------------------------

    async def open(self, timeout: float) -> ClientSession:
        """The live session, starting (or restarting) the server if there is none."""
        if self.session is not None:
            return self.session
        if self._ready is None or self._ready.done():
            wait = self._retry_at - time.monotonic()
            if wait > 0:
                raise UpstreamDown(f"upstream {self.config.name!r} failed to start ({self.last_error}); the next try is in {math.ceil(wait)} s")
            self._ready = asyncio.get_running_loop().create_future()
            # Its waiters may all be gone (cancelled by close(), or a listing that waits 0 s): a failed start is still
            # known from the state, and must not print "Future exception was never retrieved" when it is collected.
            self._ready.add_done_callback(_retrieved)
            self._stop = asyncio.Event()
            # A retry after a failure stays "failed" (with its last error) until it succeeds.
            if self.state != "failed":
                self.state = "connecting"
            self.starts += 1
            self._too_large = None
            self._task = asyncio.get_running_loop().create_task(self._hold(self._ready, self._stop), name=f"upstream {self.config.name}")
        try:
            return await asyncio.wait_for(asyncio.shield(self._ready), timeout)
        except asyncio.TimeoutError:
            raise UpstreamDown(f"upstream {self.config.name!r} did not finish starting within {timeout:.0f} s") from None

    async def _hold(self, ready: asyncio.Future[ClientSession], stop: asyncio.Event) -> None:
        try:
            async with contextlib.AsyncExitStack() as stack:
                read, write = await stack.enter_async_context(self._transport())
                watched = await stack.enter_async_context(watch_end(read, stop))
                session = await stack.enter_async_context(
                    _FormOnlySession(
                        watched, write, elicitation_callback=self.questions.elicit,
                        message_handler=self._on_message, client_info=CLIENT_INFO,
                    )
                )
                # Bounded by itself, not by whoever waits: a start that hangs (an HTTP server dripping its answer) stayed
                # "connecting" for ever, every later call waiting on it, and the server was never tried again.
                with anyio.move_on_after(START_TIMEOUT_S) as start:
                    result = await session.initialize()
                if start.cancelled_caught:
                    raise UpstreamDown(f"it did not answer initialize within {START_TIMEOUT_S:g} s")
                self.protocol_version = result.protocol_version
                self.server_name = result.server_info.name if result.server_info else None
                self.session, self.state, self.last_error, self._failures = session, "connected", None, 0
                ready.set_result(session)
                await stop.wait()
        except BaseException as exc:  # whatever stopped it, the state says so and nobody waits forever
            reason = _reason(exc)
            if not ready.done():
                reason = self._with_stderr(reason)
                ready.set_exception(UpstreamDown(f"upstream {self.config.name!r} could not start: {reason}"))
                self._back_off(reason)
            if isinstance(exc, asyncio.CancelledError):
                raise
        finally:
            self.session = None
            if self.state == "connected":  # lost() and failed starts have said why already
                if self._closing:
                    self.state = "not connected"
                else:
                    # Its stdio transport has read its stderr to the end (or for half a second) by now.
                    self.state, self.last_error = "failed", self._with_stderr("the server closed the connection; it is restarted on the next call")

    def _transport(self):
        config = self.config
        if config.transport == HTTP:
            client = create_mcp_http_client(headers=dict(config.headers) or None)
            client.event_hooks = {"response": [bound_answer]}
            quiet_cuts()
            # The SDK's own limit on one event (1 MiB) refused answers a stdio server may send; one message's bound is ours.
            return owning(client, streamable_http_client(str(config.url), http_client=client, max_sse_event_size=MAX_ANSWER_BYTES))
        if config.cwd and not os.path.isdir(config.cwd):
            # The spawn's FileNotFoundError names the folder, and read as "the command was not found".
            raise UpstreamDown(f"its working folder (cwd) {config.cwd} does not exist")
        params = StdioServerParameters(command=str(config.command), args=list(config.args), env=dict(config.env) or None, cwd=config.cwd)
        self._stderr = StderrTail(stderr_sink())
        return bounded_stdio_client(params, self._stderr, self._answered_too_much)

    def _with_stderr(self, reason: str) -> str:
        """A failed start's or a lost session's reason, with the end of the server's stderr when it wrote any (secrets masked)."""
        said = self._stderr.quoted() if self._stderr is not None else ""
        if not said:
            return reason
        return f"{reason}; its stderr ended with: {redact(mask_url_secrets(said), self.config.secrets)}"

    def _answered_too_much(self, size: int) -> None:
        self._too_large = size
        log.debug("upstream %s sent a message of more than %d bytes; the session is ended", self.config.name, MAX_ANSWER_BYTES)

    def _back_off(self, reason: str) -> None:
        self._failures += 1
        self.state, self.last_error = "failed", reason
        self._retry_at = time.monotonic() + min(MAX_BACKOFF_S, FIRST_BACKOFF_S * 2 ** (self._failures - 1))

    def lost(self, reason: str) -> None:
        """The session stopped answering (it closed mid-call): drop it; the next call starts a new one."""
        if self._stop is not None:
            self._stop.set()
        self.session = None
        self.state, self.last_error = "failed", reason

    async def _on_message(self, message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            await self._on_tools_changed()
        elif isinstance(message, Exception):
            log.debug("upstream %s: transport error: %s", self.config.name, message)

    # -- using -------------------------------------------------------------------

    async def list_tools(self, timeout: float) -> list[dict[str, Any]]:
        """Every tool, following ``nextCursor``; each as the JSON the server sent."""
        session = await self.open(timeout)
        tools: list[dict[str, Any]] = []
        refused: list[tuple[str, str]] = []
        cursor: str | None = None
        seen: set[str] = set()
        names: set[str] = set()
        with anyio.fail_after(timeout):
            while True:
                page = await self._guarded(list_tools_page(session, cursor), "listing its tools")
                # A call names its tool: a second definition under a name already listed could never be called as
                # itself (it was offered as NAME_2, checked against its own schema and run as the first).
                for tool in page.tools:
                    if tool["name"] in names:
                        refused.append((tool["name"], "the server lists a tool by this name already; the first definition is offered"))
                    else:
                        names.add(tool["name"])
                        tools.append(tool)
                refused += page.refused
                self.refused_tools = refused
                if len(tools) > MAX_LISTED_TOOLS:
                    # A server that hands out new cursors for ever would be listed until the time ran out, all of it kept.
                    raise UpstreamDown(f"upstream {self.config.name!r} lists more than {MAX_LISTED_TOOLS:,} tools; opgate takes at most that many from one server")
                cursor = page.next_cursor
                # A server that hands back a cursor it already gave would loop forever.
                if not cursor or cursor in seen:
                    return tools
                seen.add(cursor)

    async def call_tool(self, tool: str, arguments: dict[str, Any], budget_s: float, pending: PendingCall) -> types.CallToolResult:
        """``tools/call`` within ``budget_s`` (paused while the person answers a question).

        On timeout the request is abandoned by cancelling it: the SDK then
        sends ``notifications/cancelled`` for it, so the server can stop.
        """
        started = anyio.current_time()
        session = await self.open(budget_s)
        left = budget_s - (anyio.current_time() - started)
        with self.questions.tracking(pending):
            with anyio.CancelScope(deadline=anyio.current_time() + max(0.0, left)) as scope:
                pending.scope = scope
                progress = pending.on_progress if pending.progress is not None else None
                return await self._guarded(session.call_tool(tool, arguments, progress_callback=progress), f"running {tool}")
        raise CallTimedOut(budget_s)

    async def _guarded(self, request: Awaitable[Any], doing: str) -> Any:
        watch = AnswerWatch()
        token = watching(watch)
        try:
            return await self._sent(request, doing)
        except BaseException:
            # Over HTTP the answer's POST would go on reading for as long as the server sends: it ends with the call.
            watch.abandon()
            if watch.too_large is not None:
                raise AnswerTooLarge(
                    f"upstream {self.config.name!r} answered with more than {MAX_ANSWER_BYTES:,} bytes while {doing}, which is not read;"
                    " ask for less (a page, a filter)"
                ) from None
            raise
        finally:
            stop_watching(token)

    async def _sent(self, request: Awaitable[Any], doing: str) -> Any:
        try:
            return await request
        except ValidationError as exc:
            # A JSON-RPC answer whose result is not what MCP says (content not a list, an unknown block): the SDK's check
            # raised pydantic's dump, quoting the answer, and it was reported retryable.
            raise unreadable_error(self.config.name, doing, first_reason(exc)) from None
        except MCPError as exc:
            reason = unreadable_reason(exc.code, exc.message)
            if reason is not None:
                raise unreadable_error(self.config.name, doing, reason) from None
            # -32000 is also the first code JSON-RPC leaves to servers: a server's own error with it is its answer (the
            # server stays). The SDK's "Connection closed" comes after the server's messages ended (watch_end sets stop).
            if exc.code == CONNECTION_CLOSED and (self._stop is None or self._stop.is_set()):
                await self._closed_while(doing)
            raise
        except (anyio.ClosedResourceError, anyio.BrokenResourceError):
            await self._closed_while(doing)
            raise

    async def _closed_while(self, doing: str) -> None:
        """The session ended under a request: said, with the server's last words on stderr when it wrote any."""
        self._raise_if_too_large(doing)
        if self._stderr is not None:
            await self._stderr.settled(_LAST_WORDS_S)
        reason = self._with_stderr(f"the connection closed while {doing}")
        self.lost(reason)
        raise UpstreamDown(f"upstream {self.config.name!r} closed the connection while {doing}; it is restarted on the next call" + reason.removeprefix(f"the connection closed while {doing}")) from None

    def _raise_if_too_large(self, doing: str) -> None:
        if self._too_large is not None:
            self.lost(f"it sent a message of more than {MAX_ANSWER_BYTES:,} bytes, which was not read; it is restarted on the next call")
            raise AnswerTooLarge(
                f"upstream {self.config.name!r} answered with more than {MAX_ANSWER_BYTES:,} bytes while {doing}, which is not read;"
                " ask for less (a page, a filter). The server is restarted on the next call"
            ) from None

    # -- closing -----------------------------------------------------------------

    async def close(self) -> None:
        """End the session and, for stdio, the server process (the SDK's transport waits for it to exit)."""
        task = self._task
        self._closing = True
        if self._stop is not None:
            self._stop.set()
        if task is not None and not task.done():
            # A start has no session to end: a server that never answers initialize kept close() waiting its 10 s.
            starting = self._ready is not None and not self._ready.done()
            try:
                await asyncio.wait_for(asyncio.shield(task), 0.0 if starting else 10.0)
            except (asyncio.TimeoutError, Exception):
                task.cancel()
                with contextlib.suppress(BaseException):
                    await task
        self.session, self.state = None, "not connected"


def _reason(exc: BaseException) -> str:
    if isinstance(exc, BaseExceptionGroup):
        inner = [e for e in exc.exceptions if not isinstance(e, asyncio.CancelledError)]
        if inner:
            return _reason(inner[0])
    if isinstance(exc, FileNotFoundError):
        return f"the command was not found ({exc.filename or exc})"
    if isinstance(exc, asyncio.CancelledError):
        return "it was stopped while starting"
    text = str(exc) or type(exc).__name__
    return text.splitlines()[0][:300]


def _retrieved(future: asyncio.Future[Any]) -> None:
    if not future.cancelled():
        future.exception()
