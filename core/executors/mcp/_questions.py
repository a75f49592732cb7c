"""An upstream's questions (MCP elicitation), put to the person who made the call.

The server asks on the upstream loop, while the call that caused the
question waits in the caller's thread (the CLI's main thread, an MCP
server's worker thread). The question travels to that thread, which asks
through the gateway's asker (a terminal prompt, the MCP client's own
elicitation) and sends the answer back. Asking from the caller's thread
matters: an asker may only work there (``opgate serve`` asks its client
from the worker thread of the call).

While the person thinks, the call's clock stops: the timeout is for the
upstream's work, not for the person.

A question goes to the one call in flight on that upstream. With several
in flight it cannot be told which one asked, so it is declined; with
nobody to ask, it is declined too.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import queue
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future
from typing import Any

from ...exec._confirm import Asker, Question
from .._progress import ProgressReporter
from .._redact import redact

_DONE = object()
_PROGRESS = object()  # the inbox holds at most one: it says a newer report waits in PendingCall._latest
_ABANDON_POLL_S = 0.1
PROGRESS_MESSAGE_CHARS = 1_000
"""The most of a progress report's message passed on: it is a line for a person, and the server chooses its length."""


class CallAbandoned(Exception):
    """The caller cancelled the call; its upstream request was cancelled."""


class PendingCall:
    """One ``tools/call`` in flight: who may be asked, and the clock that may be paused."""

    def __init__(self, op: str, upstream: str, asker: Asker | None, progress: ProgressReporter | None = None, abandoned: threading.Event | None = None):
        self.op = op
        self.upstream = upstream
        self.asker = asker
        self.progress = progress
        self.abandoned = abandoned  # set when the caller cancelled: the request is cancelled too
        self.scope: Any = None  # the anyio.CancelScope that bounds the call, set on the loop
        self._inbox: queue.Queue[Any] = queue.Queue()
        self._latest: _Progress | None = None  # the newest report not yet passed on
        self._latest_lock = threading.Lock()
        self._remaining: float | None = None
        self.asked_s = 0.0

    # -- on the loop ---------------------------------------------------------------

    async def ask(self, question: Question) -> dict[str, Any] | None:
        import anyio

        reply: asyncio.Future[dict[str, Any] | None] = asyncio.get_running_loop().create_future()
        if self.scope is not None:
            self._remaining = max(0.0, self.scope.deadline - anyio.current_time())
            self.scope.deadline = math.inf
        started = time.monotonic()
        self._inbox.put((question, reply))
        try:
            return await reply
        finally:
            self.asked_s += time.monotonic() - started
            if self.scope is not None and self._remaining is not None:
                self.scope.deadline = anyio.current_time() + self._remaining

    async def on_progress(self, progress: float, total: float | None, message: str | None) -> None:
        """The SDK's progress callback: the report goes to the caller's thread, never waited for here.

        Reports that come faster than the caller's thread passes them on
        are coalesced to the newest: a server that floods them neither
        grows the inbox nor keeps the caller from hearing it was cancelled.
        """
        if isinstance(message, str) and len(message) > PROGRESS_MESSAGE_CHARS:
            message = message[: PROGRESS_MESSAGE_CHARS - 1] + "…"
        with self._latest_lock:
            waiting, self._latest = self._latest is not None, _Progress(progress, total, message)
        if not waiting:
            self._inbox.put(_PROGRESS)

    # -- in the caller's thread ------------------------------------------------------

    def wait(self, future: Future[Any], loop: asyncio.AbstractEventLoop, guard_s: float) -> Any:
        """The call's result, answering its questions meanwhile; ``TimeoutError`` after ``guard_s`` of upstream time."""
        future.add_done_callback(lambda _: self._inbox.put(_DONE))
        deadline = time.monotonic() + guard_s
        while True:
            if self.abandoned is not None and self.abandoned.is_set():
                # Looked at before every item too: a server that never stops reporting never leaves the inbox empty.
                future.cancel()  # the SDK sends notifications/cancelled for it
                raise CallAbandoned
            left = max(0.0, deadline + self.asked_s - time.monotonic())
            try:
                # A caller that can give up is looked at ten times a second; the others wait for the answer alone.
                item = self._inbox.get(timeout=left if self.abandoned is None else min(left, _ABANDON_POLL_S))
            except queue.Empty:
                if self.abandoned is not None and (self.abandoned.is_set() or left > _ABANDON_POLL_S):
                    continue
                future.cancel()
                raise TimeoutError from None
            if item is _DONE:
                return future.result()
            if item is _PROGRESS:
                with self._latest_lock:
                    latest, self._latest = self._latest, None
                if latest is not None:
                    self._report(latest)
                continue
            question, reply = item
            answer = self._answer(question)
            loop.call_soon_threadsafe(_settle, reply, answer)

    def _report(self, item: _Progress) -> None:
        if self.progress is None:
            return
        try:
            self.progress(item.progress, item.total, item.message)
        except Exception:  # a client that cannot be told misses a report; the call goes on
            pass

    def _answer(self, question: Question) -> dict[str, Any] | None:
        if self.asker is None:
            return None
        try:
            answer = self.asker(question)
        except Exception:  # an asker that fails is a person who did not answer
            return None
        return answer if isinstance(answer, dict) else None


class _Progress:
    __slots__ = ("progress", "total", "message")

    def __init__(self, progress: float, total: float | None, message: str | None):
        self.progress, self.total, self.message = progress, total, message


def _settle(reply: asyncio.Future[Any], answer: Any) -> None:
    if not reply.done():
        reply.set_result(answer)


class QuestionRouter:
    """Routes one upstream's ``elicitation/create`` requests to the call that is waiting for them."""

    def __init__(self, upstream: str, secrets: tuple[str, ...] = ()):
        self.upstream = upstream
        self.secrets = secrets  # the upstream's configured secrets: masked in what it asks, as in what it answers
        self._calls: list[PendingCall] = []

    @contextlib.contextmanager
    def tracking(self, call: PendingCall) -> Iterator[None]:
        self._calls.append(call)
        try:
            yield
        finally:
            self._calls.remove(call)

    async def elicit(self, context: Any, params: Any) -> Any:
        import mcp_types as types

        declined = types.ElicitResult(action="decline")
        if not isinstance(params, types.ElicitRequestFormParams) or len(self._calls) != 1:
            return declined
        call = self._calls[0]
        if call.asker is None:
            return declined
        schema = params.requested_schema
        if hasattr(schema, "model_dump"):
            schema = schema.model_dump(by_alias=True, exclude_none=True)
        message = redact(params.message, self.secrets) if self.secrets else params.message
        answer = await call.ask(Question(call.op, self.upstream, message, dict(schema or {})))
        if answer is None:
            return declined
        return types.ElicitResult(action="accept", content=answer)
