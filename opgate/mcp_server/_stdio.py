"""MCP over standard input and output, answering every line it cannot use.

Lines are cut, parsed and answered as ``_stdio_lines`` says; valid messages
go to the SDK's server loop unchanged.

When the protocol runs over pipes or sockets (as every MCP host runs a
stdio server), both ends are served on the event loop itself: a message is
read when its bytes arrive and an answer written when it is ready, with no
thread between the wire and the server. A thread hop costs a wake-up of
another thread per message, and on a busy machine each wake-up waits for a
core. Anything else on standard input (a file, a terminal) is read by a
thread and written from worker threads, since the event loop cannot wait on
those.

Standard output is the protocol: while serving, file descriptor 1 points at
standard error, so a stray print or a library's chatter cannot corrupt it,
and descriptor 0 at the null device, so no child process can read the
client's messages; the protocol goes through private duplicates.
"""

from __future__ import annotations

import asyncio
import os
import stat
import threading
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from mcp.shared.message import SessionMessage

from ._stdio_lines import MAX_MESSAGE_BYTES, Line, LineSplitter, Unusable, encode, parsed_or_internal_error

READ_BYTES = 256 * 1024
QUEUED_BYTES = 1024 * 1024
"""Lines read ahead of the server, in bytes, before reading pauses (the client then waits on a full pipe)."""


def is_stream(fd: int) -> bool:
    """Whether the event loop can wait on ``fd``: a pipe or a socket (not a file or a terminal)."""
    mode = os.fstat(fd).st_mode
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)


class LoopReader(asyncio.Protocol):
    """Standard input read on the event loop as its bytes arrive, cut into lines."""

    def __init__(self, limit: int):
        self._splitter = LineSplitter(limit)
        self._lines: deque[Line] = deque()
        self._queued = 0
        self._paused = False
        self._ended = False
        self._waiter: asyncio.Future[None] | None = None
        self._transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self._transport = transport

    def data_received(self, data: bytes) -> None:
        for line in self._splitter.feed(data):
            self._lines.append(line)
            self._queued += len(line[0])
        if self._queued > QUEUED_BYTES and not self._paused:
            self._paused = True
            self._transport.pause_reading()
        self._wake()

    def eof_received(self) -> bool:
        self._end()
        return False

    def connection_lost(self, exc: Exception | None) -> None:
        self._end()  # a read error ends the input as its end would

    def _end(self) -> None:
        if not self._ended:
            self._ended = True
            if (last := self._splitter.end()) is not None:
                self._lines.append(last)
            self._wake()

    def _wake(self) -> None:
        if self._waiter is not None and not self._waiter.done():
            self._waiter.set_result(None)

    async def next_line(self) -> Line | None:
        """The next line; ``None`` at the end of input."""
        while not self._lines:
            if self._ended:
                return None
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        line = self._lines.popleft()
        self._queued -= len(line[0])
        if self._paused and self._queued <= QUEUED_BYTES // 2:
            self._paused = False
            self._transport.resume_reading()
        return line


class LoopWriter(asyncio.Protocol):
    """Standard output written on the event loop; a writer waits while the client is slow to read."""

    def __init__(self) -> None:
        self._drained: asyncio.Future[None] | None = None
        self._lost = False
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport

    def pause_writing(self) -> None:
        self._drained = asyncio.get_running_loop().create_future()

    def resume_writing(self) -> None:
        if self._drained is not None and not self._drained.done():
            self._drained.set_result(None)
        self._drained = None

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = True
        self.resume_writing()

    async def write(self, data: bytes) -> None:
        if self._lost:
            raise BrokenPipeError("the client closed standard output; the answer could not be written")
        self.transport.write(data)
        if self._drained is not None:
            await self._drained

    async def flush(self) -> None:
        """Wait until everything written has reached the pipe."""
        if not self._lost:
            self.transport.set_write_buffer_limits(high=0)  # pauses now if anything waits; resumes once the buffer is empty
            if self._drained is not None:
                await self._drained


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


@contextmanager
def _diverted(fd: int, target: int) -> Iterator[int]:
    """A private duplicate of ``fd`` while ``fd`` itself points at ``target``; restored (blocking again) after."""
    wire = os.dup(fd)
    saved = os.dup(fd)
    os.dup2(target, fd)
    try:
        yield wire
    finally:
        os.dup2(saved, fd)
        os.close(saved)
        try:
            os.set_blocking(fd, True)  # the event loop made the shared descriptor non-blocking
        except OSError:
            pass


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
    loop = asyncio.get_running_loop()
    transports: list[Any] = []
    read_on_the_loop, write_on_the_loop = is_stream(wire_in), is_stream(wire_out)

    async def deliver(lines: list[Line], ended: bool) -> None:
        for line in lines:
            message = parsed_or_internal_error(*line, limit)
            if isinstance(message, Unusable):
                await replies.send(message.reply)
            elif message is not None:
                await to_server_send.send(message)
        if ended:
            to_server_send.close()

    async def read_on_loop(reader: LoopReader) -> None:
        while (line := await reader.next_line()) is not None:
            await deliver([line], False)
        await deliver([], True)

    async def write_on_loop(writer: LoopWriter) -> None:
        async with outgoing:
            async for message in outgoing:
                await writer.write(encode(message))
        await writer.flush()

    async def write_from_threads() -> None:
        async with outgoing:
            async for message in outgoing:
                await anyio.to_thread.run_sync(_write, wire_out, encode(message))

    try:
        async with anyio.create_task_group() as task_group:
            if write_on_the_loop:
                transport, writer = await loop.connect_write_pipe(LoopWriter, os.fdopen(wire_out, "wb", buffering=0, closefd=False))
                transports.append(transport)
                task_group.start_soon(write_on_loop, writer)
            else:
                task_group.start_soon(write_from_threads)
            if read_on_the_loop:
                transport, reader = await loop.connect_read_pipe(lambda: LoopReader(limit), os.fdopen(wire_in, "rb", buffering=0, closefd=False))
                transports.append(transport)
                task_group.start_soon(read_on_loop, reader)
            else:
                threading.Thread(
                    target=_read_forever, args=(wire_in, limit, deliver, anyio.lowlevel.current_token()), name="opgate stdin", daemon=True,
                ).start()
            yield to_server, from_server
            # The writer drains what the server answered last, then ends when both senders are closed.
            from_server.close()
            replies.close()
    finally:
        for transport in transports:
            if not transport.is_closing():
                transport.abort()  # what was answered is written already (the writer flushed); the descriptors close next
        os.close(wire_out)
        if read_on_the_loop:  # else the reader thread may still be blocked on it: it must not be recycled under it
            os.close(wire_in)


def serve_stdio(server: Any) -> None:
    """Serve a :class:`GatewayMCPServer` over stdin and stdout until stdin closes."""

    async def serve() -> None:
        async with guarded_stdio() as (read_stream, write_stream):
            await server.server.run(read_stream, write_stream, server.server.create_initialization_options())

    anyio.run(serve)
