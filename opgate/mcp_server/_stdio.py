"""MCP over standard input and output, answering every line it cannot use.

Lines are cut, parsed and answered as ``_stdio_lines`` says; valid messages
go to the SDK's server loop unchanged. A daemon thread reads standard input
and hands the event loop every line one read completed, in one hop; answers
are written from worker threads.

The event loop could read and write pipes itself, with fewer thread
wake-ups and a little less CPU per call, but on a loaded machine that made
tools/call slower, not faster: driven by the SDK's client at load 8 to 15,
its median call took about 1.4x as long as with these threads (geometric
mean of 20 interleaved runs; the threads won 15). A thread that wakes for
one short step is scheduled sooner than one thread doing every step in a
row (see docs/performance.md).

Standard output is the protocol: while serving, file descriptor 1 points at
standard error, so a stray print or a library's chatter cannot corrupt it,
and descriptor 0 at the null device, so no child process can read the
client's messages; the protocol goes through private duplicates.
"""

from __future__ import annotations

import os
import signal
import sys
import threading
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.shared.message import SessionMessage

from ._stdio_lines import MAX_MESSAGE_BYTES, Line, LineSplitter, Unusable, encode, parsed_or_internal_error

READ_BYTES = 64 * 1024  # under malloc's mmap threshold: a read allocates its buffer from the heap


def _read_forever(fd: int, limit: int, deliver: Callable[..., Any], token: Any) -> None:
    # A daemon thread, unlike anyio's workers, never keeps the process alive blocked on a read.
    splitter = LineSplitter(limit)
    while True:
        try:
            data = os.read(fd, READ_BYTES)
        except OSError:
            data = b""
        if data:
            lines = splitter.feed(data)
        else:
            last = splitter.end()
            lines = [last] if last is not None else []
        try:
            anyio.from_thread.run(deliver, lines, not data, token=token)
        except Exception:  # the event loop or the streams are gone: nothing left to read for
            return
        if not data:
            return


def _write(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def _flush_stdout() -> None:
    # print() fills sys.stdout's buffer (unless PYTHONUNBUFFERED): flushed at the switch, each piece lands where
    # descriptor 1 pointed when it was printed, never on the protocol after serving.
    try:
        sys.stdout.flush()
    except (AttributeError, OSError, ValueError):  # no stdout, or a closed one: nothing buffered to lose
        pass


@contextmanager
def _diverted(fd: int, target: int) -> Iterator[int]:
    """A private duplicate of ``fd`` while ``fd`` itself points at ``target``; restored after."""
    wire = os.dup(fd)
    saved = os.dup(fd)
    if fd == 1:
        _flush_stdout()
    os.dup2(target, fd)
    try:
        yield wire
    finally:
        if fd == 1:
            _flush_stdout()
        os.dup2(saved, fd)
        os.close(saved)


@asynccontextmanager
async def guarded_stdio(limit: int = MAX_MESSAGE_BYTES) -> AsyncIterator[tuple[Any, Any]]:
    """``(read_stream, write_stream)`` over this process's stdin and stdout, for ``Server.run``."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        with _diverted(0, null) as wire_in, _diverted(1, 2) as wire_out:
            async with _served(wire_in, wire_out, limit) as streams:
                yield streams
    finally:
        os.close(null)


@asynccontextmanager
async def _served(wire_in: int, wire_out: int, limit: int) -> AsyncIterator[tuple[Any, Any]]:
    to_server_send, to_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    from_server, outgoing = anyio.create_memory_object_stream[SessionMessage](16)
    replies = from_server.clone()  # ours: the server closes its own copy when it stops

    async def deliver(lines: list[Line], ended: bool) -> None:
        for line in lines:
            message = parsed_or_internal_error(*line, limit)
            if isinstance(message, Unusable):
                await replies.send(message.reply)
            elif message is not None:
                await to_server_send.send(message)
        if ended:
            to_server_send.close()

    async def write_output() -> None:
        async with outgoing:
            async for message in outgoing:
                await anyio.to_thread.run_sync(_write, wire_out, encode(message))

    try:
        async with anyio.create_task_group() as task_group:
            task_group.start_soon(write_output)
            reader = threading.Thread(
                target=_read_forever, args=(wire_in, limit, deliver, anyio.lowlevel.current_token()), name="opgate stdin", daemon=True,
            )
            reader.start()
            yield to_server, from_server
            # The writer drains what the server answered last, then ends when both senders are closed.
            from_server.close()
            replies.close()
    finally:
        os.close(wire_out)
        # wire_in stays open: the reader thread may still be blocked on it, and it must not be recycled under it.


def _stop_signals() -> list[int]:
    # Only the main thread may take signals; a server run from another thread leaves them to its program.
    if threading.current_thread() is not threading.main_thread():
        return []
    return [number for name in ("SIGTERM", "SIGHUP") if (number := getattr(signal, name, None)) is not None]


def serve_stdio(server: Any) -> int | None:
    """Serve a :class:`GatewayMCPServer` over stdin and stdout until stdin closes, or SIGTERM or SIGHUP arrives.

    Left at their default, those signals would end the process at once, with
    no ``finally`` and no ``atexit``: the call log's last window would be
    lost. They stop serving instead (calls running finish first: their
    threads cannot be abandoned), and stay caught until serving has ended, so
    a second one cannot cut that short. Returns the number of the signal
    that stopped it, ``None`` when the input closed.
    """
    stopped_by: list[int] = []

    async def stop_on(received: Any, serving: anyio.CancelScope) -> None:
        async for number in received:
            stopped_by.append(number)
            serving.cancel()

    async def serve() -> None:
        with anyio.open_signal_receiver(*_stop_signals()) as received:
            async with anyio.create_task_group() as group:
                with anyio.CancelScope() as serving:
                    group.start_soon(stop_on, received, serving)
                    async with guarded_stdio() as (read_stream, write_stream):
                        await server.server.run(read_stream, write_stream, server.server.create_initialization_options())
                group.cancel_scope.cancel()

    anyio.run(serve)
    return stopped_by[0] if stopped_by else None
