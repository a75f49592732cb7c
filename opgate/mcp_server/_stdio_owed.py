"""What a stdio connection still owes when its input ends: answers to the client, and the client's to the server.

``opgate serve < requests.jsonl`` ends its input right after the last
request. Stopping then lost the answers of calls still running (their
threads ran to the end, but nothing was written). So serving goes on until
every request the client sent has its answer. The client can answer nothing
any more: each question the server asks it (a confirmation form) gets an
error here at once, so a call waiting for one is refused, answered, and the
server ends, rather than waiting out the confirmation timeout.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import mcp_types as types
from mcp.shared.message import SessionMessage

INPUT_ENDED_MESSAGE = "the client closed its input: it cannot answer"
STREAMS = frozenset({"subscriptions/listen"})
"""Requests answered only when their stream ends (2026-07-28): the end of input does not wait for them."""


def _unanswerable(request_id: types.RequestId) -> SessionMessage:
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=types.INTERNAL_ERROR, message=INPUT_ENDED_MESSAGE))
    return SessionMessage(error)


class Owed:
    """The client's requests not yet answered, and the server's requests the client has not answered."""

    def __init__(self) -> None:
        self._asked: Counter[Any] = Counter()
        self._waiting: set[Any] = set()
        self.input_ended = False

    @property
    def settled(self) -> bool:
        """Whether every request the client sent has been answered (or cancelled)."""
        return not self._asked

    def came_in(self, message: SessionMessage) -> None:
        """Note a message from the client, before the server sees it."""
        inner = message.message
        kind = type(inner)
        if kind is types.JSONRPCRequest:
            if inner.method not in STREAMS:
                self._asked[inner.id] += 1
        elif kind is types.JSONRPCNotification:
            # A cancelled request is never answered (MCP): nothing is owed for it any more.
            if inner.method == "notifications/cancelled" and isinstance(inner.params, dict):
                self._paid(inner.params.get("requestId"))
        else:
            self._waiting.discard(getattr(inner, "id", None))

    def refused(self, reply: SessionMessage) -> None:
        """Note the error about to answer a line that was not a usable message (it never reached the server).

        Its id is the client's, and may be that of a call still running: it is
        counted as owed here, so that writing it pays for itself and not for
        that call, whose answer the end of input must still wait for.
        """
        request_id = getattr(reply.message, "id", None)
        if isinstance(request_id, (int, str)):
            self._asked[request_id] += 1

    def went_out(self, message: SessionMessage) -> list[SessionMessage]:
        """Note a message written to the client; the answers to give the server now in the client's place."""
        inner = message.message
        kind = type(inner)
        if kind is types.JSONRPCRequest:
            if self.input_ended:
                return [_unanswerable(inner.id)]
            self._waiting.add(inner.id)
        elif kind is types.JSONRPCResponse or kind is types.JSONRPCError:
            self._paid(inner.id)
        return []

    def input_end(self) -> list[SessionMessage]:
        """The input has ended: the answers to give the server for the questions the client left open."""
        self.input_ended = True
        owed = [_unanswerable(request_id) for request_id in self._waiting]
        self._waiting.clear()
        return owed

    def _paid(self, request_id: Any) -> None:
        if isinstance(request_id, (int, str)) and self._asked[request_id] > 0:
            self._asked[request_id] -= 1
            if not self._asked[request_id]:
                del self._asked[request_id]
