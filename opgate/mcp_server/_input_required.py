"""Confirmation for 2026-07-28 clients: the call waits while the person answers.

At 2026-07-28 a server may not send the client a request. To ask, a tool
call answers with an ``InputRequiredResult`` (SEP-2322): an elicitation form
and an opaque ``requestState``; the client shows the form and calls the tool
again with the answer and the state. The op must not run twice (a batch may
have written before the step that asks), so the first call's exec keeps
running in its worker thread, blocked in the approver, and the retry hands it
the answer: the state is the key of that waiting call. A call nobody answers
is refused after the timeout, as a declined one is. Waiting calls are bounded
per client and in all (``ConfirmationBudget``); only the caller who was asked
can answer.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.abc
import anyio.from_thread
import mcp_types as types

from opgate.core.exec import ConfirmationRequest

from ._clients import Client, ConfirmationBudget
from ._confirmation import CONFIRM_FIELD, confirmation_form, is_confirmed
from ._tools import tool_result

log = logging.getLogger(__name__)


def call_fingerprint(name: str, arguments: dict[str, Any] | None) -> str:
    """Identifies a tool call, so that an answer is only accepted by a retry of the call it was asked for."""
    text = json.dumps([name, arguments or {}], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass
class _Question:
    request: ConfirmationRequest


@dataclass
class _Finished:
    answer: Any


class _WaitingCall:
    """One tool call whose exec may stop to ask; it talks to the request handlers through a stream."""

    def __init__(self, calls: PendingCalls, fingerprint: str, client: Client):
        self.fingerprint = fingerprint
        self.client = client
        self._calls = calls
        self._send, self._receive = anyio.create_memory_object_stream[_Question | _Finished](math.inf)
        self._answered = anyio.Event()
        self._answer = False
        self.token: str | None = None

    def ask(self, request: ConfirmationRequest) -> bool:
        """The confirmation channel: runs in the worker thread, blocks until the retry brings the answer."""
        return anyio.from_thread.run(self._ask, request)

    async def _ask(self, request: ConfirmationRequest) -> bool:
        self._calls.budget.take(self.client, request.op)  # refuses, with the reason, when too many wait
        try:
            self._calls.register(self)
            self._answered, self._answer = anyio.Event(), False
            await self._send.send(_Question(request))
            with anyio.move_on_after(self._calls.timeout):
                await self._answered.wait()
                return self._answer
        finally:
            self._calls.budget.give_back(self.client)
        self._calls.forget(self)
        log.warning("no answer to confirm %s within %.0f s; not running it", request.op, self._calls.timeout)
        return False

    def answer(self, confirmed: bool) -> None:
        self._answer = confirmed
        self._answered.set()

    async def finish(self, answer: Any) -> None:
        await self._send.send(_Finished(answer))

    async def next_result(self) -> types.CallToolResult | types.InputRequiredResult:
        """The call's result, or the question it stopped at, whichever comes first."""
        event = await self._receive.receive()
        if isinstance(event, _Finished):
            return tool_result(event.answer)
        form = confirmation_form(event.request)
        return types.InputRequiredResult(input_requests={CONFIRM_FIELD: types.ElicitRequest(params=form)}, request_state=self.token)


class PendingCalls:
    """The calls waiting for a person's answer, by the ``requestState`` their question carried."""

    def __init__(self, task_group: anyio.abc.TaskGroup, timeout: float, budget: ConfirmationBudget):
        self.timeout = timeout
        self.budget = budget
        self._task_group = task_group
        self._waiting: dict[str, _WaitingCall] = {}

    def register(self, call: _WaitingCall) -> None:
        call.token = secrets.token_urlsafe(24)
        self._waiting[call.token] = call

    def forget(self, call: _WaitingCall) -> None:
        if call.token is not None:
            self._waiting.pop(call.token, None)

    async def start(self, client: Client, fingerprint: str, run: Callable[[_WaitingCall], Awaitable[Any]]) -> types.CallToolResult | types.InputRequiredResult:
        """Start a call in the background (it outlives this request if it asks) and answer with its first step."""
        call = _WaitingCall(self, fingerprint, client)

        async def drive() -> None:
            await call.finish(await run(call))

        self._task_group.start_soon(drive)
        return await call.next_result()

    async def resume(self, client: Client, state: str, fingerprint: str, responses: dict[str, Any] | None) -> types.CallToolResult | types.InputRequiredResult | None:
        """Give the waiting call its answer and carry on; ``None`` when no call of this caller waits under ``state`` for this call."""
        call = self._waiting.get(state)
        if call is None or not secrets.compare_digest(call.fingerprint, fingerprint) or call.client.key.identity != client.key.identity:
            return None
        del self._waiting[state]
        call.answer(is_confirmed((responses or {}).get(CONFIRM_FIELD)))
        return await call.next_result()

    def refuse_all(self) -> None:
        """On shutdown: every waiting call is answered no, so its worker thread ends."""
        for call in list(self._waiting.values()):
            call.answer(False)
        self._waiting.clear()
