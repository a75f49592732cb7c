"""Streamable HTTP answers read within :data:`MAX_ANSWER_BYTES`, and ended when the call that waits for them ends.

The SDK reads a JSON answer whole (``response.aread()``), however long it
is: a 200 MB answer was held in memory, 2 GB of it at the peak. And when a
call runs out of time the SDK stops waiting but its POST goes on reading,
for as long as the server keeps sending (a byte every few seconds keeps it
open for ever: a connection and a task per abandoned call).

Both are bounded here, on the one client the connection owns, by a response
hook that wraps the body of every POST (the answers; the GET stream of
server messages is bounded per message by the SDK's event limit):

- past :data:`MAX_ANSWER_BYTES` (or a ``Content-Length`` that says so) the
  body ends with :class:`AnswerCut`; the SDK then settles the request with
  an error, and the call's :class:`AnswerWatch` says why, so the caller is
  told "too large", not "could not parse";
- the reads are made in cancel scopes the call's :class:`AnswerWatch` keeps:
  when the call ends without its answer (timeout, cancellation), the read
  in progress is cancelled and the body ends the same way, so the server
  sees the client hang up. The session itself goes on.

The watch reaches the hook through a context variable: the SDK runs each
POST in the context of the task that sent the request.
"""

from __future__ import annotations

import contextvars
from collections.abc import AsyncIterator
from typing import Any

import anyio
import httpx2

from .._base import MAX_ANSWER_BYTES
from ._unreadable import first_reason


class AnswerCut(httpx2.StreamError):
    """A POST's body was ended before its end: too large, or nobody waits for it any more.

    A ``StreamError``: the SDK settles the request with an error for it, and keeps the session.
    """


class AnswerWatch:
    """The reads of one request's answer, so that the request's caller can end them, and learn that one was too large."""

    def __init__(self) -> None:
        self.too_large: int | None = None
        self.ended = False
        self._reads: set[anyio.CancelScope] = set()

    def abandon(self) -> None:
        """Nobody waits for the answer any more: end every read of it, now and to come."""
        self.ended = True
        for scope in self._reads:
            scope.cancel()


_WATCH: contextvars.ContextVar[AnswerWatch | None] = contextvars.ContextVar("opgate_mcp_answer_watch", default=None)


def watching(watch: AnswerWatch) -> contextvars.Token[AnswerWatch | None]:
    """Make ``watch`` the one the next request sent from this task is read under."""
    return _WATCH.set(watch)


def stop_watching(token: contextvars.Token[AnswerWatch | None]) -> None:
    _WATCH.reset(token)


def quiet_cuts() -> None:
    """Keep the SDK from logging our own cuts as errors with their tracebacks ("Error parsing JSON response").

    The caller is told what happened, in words; on ``opgate serve`` the
    operator's log would otherwise get a traceback for every answer cut.
    An answer the SDK could not parse is logged in one line, its reason
    and no traceback (the traceback quoted the answer, and said nothing the
    caller's error does not).
    """
    import logging

    sdk = logging.getLogger("mcp.client.streamable_http")
    if not any(isinstance(f, _NotOurCuts) for f in sdk.filters):
        sdk.addFilter(_NotOurCuts())


class _NotOurCuts:
    def filter(self, record: Any) -> bool:
        exc = record.exc_info[1] if record.exc_info else None
        if isinstance(exc, AnswerCut):
            return False
        if isinstance(exc, ValueError) and callable(getattr(exc, "errors", None)):  # pydantic's ValidationError
            record.msg, record.args = f"{record.getMessage()}: {first_reason(exc)}", ()
            record.exc_info = record.exc_text = None
        return True


async def bound_answer(response: httpx2.Response) -> None:
    """The client's response hook: a POST's body is read within the bound, and under its request's watch."""
    if response.request.method == "POST":
        response.stream = _BoundedBody(response.stream, response.headers.get("content-length", ""), _WATCH.get(), MAX_ANSWER_BYTES)


class _BoundedBody(httpx2.AsyncByteStream):
    def __init__(self, stream: Any, declared: str, watch: AnswerWatch | None, limit: int):
        self._stream = stream
        self._declared = int(declared) if declared.isdigit() else None
        self._watch = watch
        self._limit = limit

    @property
    def elapsed(self) -> Any:  # httpx2's Response reads it from its stream once the body is closed
        return getattr(self._stream, "elapsed", None)

    async def __aiter__(self) -> AsyncIterator[bytes]:
        watch = self._watch
        if self._declared is not None and self._declared > self._limit:
            self._too_large(self._declared)
        chunks = self._stream.__aiter__()
        size = 0
        while True:
            if watch is not None and watch.ended:
                raise AnswerCut("nobody waits for this answer any more")
            # One scope per read, never around the yield: the SDK's own awaits between reads must not be cancelled by it.
            with anyio.CancelScope() as scope:
                if watch is not None:
                    watch._reads.add(scope)
                try:
                    chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    return
                finally:
                    if watch is not None:
                        watch._reads.discard(scope)
            if scope.cancelled_caught:
                raise AnswerCut("nobody waits for this answer any more")
            size += len(chunk)
            if size > self._limit:
                self._too_large(size)
            yield chunk

    def _too_large(self, size: int) -> None:
        if self._watch is not None:
            self._watch.too_large = size
        raise AnswerCut(f"the answer is more than {self._limit:,} bytes")

    async def aclose(self) -> None:
        await self._stream.aclose()
