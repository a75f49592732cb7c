"""MCP over standard input and output, answering every line it cannot use.

Lines are cut, parsed and answered as ``_stdio_lines`` says; valid messages
go to the SDK's server loop unchanged. A daemon thread reads standard input
and hands the event loop every line one read completed, in one hop, without
waiting for the loop to take them. Answers are written by the event loop
itself while the pipe has room (a pipe that polls writable takes a
``PIPE_BUF`` write at once), and by a worker thread when it is full.

Session 8 moved both pipes onto the event loop (asyncio pipe transports)
and found tools/call slower under load, though it used less CPU; so reads
stay in their thread. What this transport removed are the waits: the
reader no longer wakes to hear its lines were taken, and an answer no
longer goes to a thread and back. A call now costs the process about 6
thread switches instead of 17 (see docs/performance.md).

Standard output is the protocol: while serving, file descriptor 1 points at
standard error, so a stray print or a library's chatter cannot corrupt it,
and descriptor 0 at the null device, so no child process can read the
client's messages; the protocol goes through private duplicates.

Serving ends at the end of input, on SIGTERM or SIGHUP (after up to
``STOP_GRACE_S``), or when the client closes our output. The first two write
the answers still owed before the server stops (``_stdio_owed``).
"""

from __future__ import annotations

import asyncio
import math
import os
import select
import signal
import stat
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from contextlib import asynccontextmanager, contextmanager
from typing import Any

import anyio
import anyio.to_thread
from mcp.shared.message import SessionMessage

from ._stdio_lines import MAX_MESSAGE_BYTES, Line, LineSplitter, Unusable, encode, parsed_or_internal_error
from ._stdio_owed import Owed

READ_BYTES = 64 * 1024  # under malloc's mmap threshold: a read allocates its buffer from the heap
READS_AHEAD = 16  # reads handed to the event loop and not yet taken, at most (each at most READ_BYTES)
STOP_GRACE_S = 5.0
"""After a stop signal, how long an answer waits for a client that does not read its pipe before it is dropped."""
WAIT_POLL_MS = 100
OWED_POLL_S = 0.02  # how often the end of input looks whether the calls still running have answered


def _read_forever(fd: int, limit: int, post: Callable[[list[Line], bool], None], room: threading.Semaphore) -> None:
    # A daemon thread, unlike anyio's workers, never keeps the process alive blocked on a read.
    # It hands each read's lines to the event loop without waiting for them to be taken: waiting
    # woke this thread once more per message, to compete for the GIL while the call was served.
    # ``room`` bounds the reads handed over and not yet taken, so a client that floods the pipe
    # is held back by the pipe, not by the server's memory.
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
        room.acquire()
        try:
            post(lines, not data)
        except RuntimeError:  # the event loop is closed: nothing left to read for
            return
        if not data:
            return




class _Output:
    """Writes answers to a pipe from the event loop while the pipe has room, else from a worker thread.

    A pipe that polls writable has a free page, so a write of at most
    ``PIPE_BUF`` bytes then completes without blocking: most answers go out
    at once, without handing each one to a thread and back (two thread
    wake-ups per answer). What a full pipe does not take (a client slow to
    read) is written from a worker thread, which may block. Other kinds of
    output (a terminal, a socket) always use the thread.
    """

    def __init__(self, fd: int):
        self.fd = fd
        self._poll: select.poll | None = None
        if stat.S_ISFIFO(os.fstat(fd).st_mode):
            self._poll = select.poll()
            self._poll.register(fd, select.POLLOUT)

    def write_now(self, data: bytes | memoryview) -> memoryview:
        """Write what the pipe takes without blocking; give back the rest."""
        view = memoryview(data)
        if self._poll is None:
            return view
        while view and self._poll.poll(0):
            view = view[os.write(self.fd, view[:select.PIPE_BUF]):]
        return view

    def write_waiting(self, data: bytes, stop: threading.Event) -> None:
        """Write all of ``data``, waiting for the client to read (from a worker thread).

        Once ``stop`` is set (a stop signal), a client that takes nothing for
        :data:`STOP_GRACE_S` gets nothing more: a blocked write cannot be
        cancelled, and the server, waiting for it, never stopped.
        """
        view = memoryview(data)
        if self._poll is None:  # a file, a terminal, a socket: written as before
            while view:
                view = view[os.write(self.fd, view):]
            return
        given_up_at: float | None = None
        while view:
            view = self.write_now(view)
            if not view or self._poll.poll(WAIT_POLL_MS):
                continue
            if stop.is_set():
                given_up_at = given_up_at or time.monotonic() + STOP_GRACE_S
                if time.monotonic() >= given_up_at:
                    return


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


class Stop:
    """A stop asked for (a signal), seen by the event loop and by the thread writing an answer.

    Made inside the event loop. Serving then ends as at the end of input (no
    more messages are read; the calls running send their answers), and an
    answer the client does not read is dropped after :data:`STOP_GRACE_S`.
    """

    def __init__(self) -> None:
        self.flag = threading.Event()
        self.asked = anyio.Event()

    def set(self) -> None:
        self.flag.set()
        self.asked.set()


@asynccontextmanager
async def guarded_stdio(limit: int = MAX_MESSAGE_BYTES, stop: Stop | None = None) -> AsyncIterator[tuple[Any, Any]]:
    """``(read_stream, write_stream)`` over this process's stdin and stdout, for ``Server.run``; ``stop`` ends them early."""
    null = os.open(os.devnull, os.O_RDWR)
    try:
        with _diverted(0, null) as wire_in, _diverted(1, 2) as wire_out:
            async with _served(wire_in, wire_out, limit, stop or Stop()) as streams:
                yield streams
    finally:
        os.close(null)


@asynccontextmanager
async def _served(wire_in: int, wire_out: int, limit: int, stop: Stop) -> AsyncIterator[tuple[Any, Any]]:
    to_server_send, to_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    from_server, outgoing = anyio.create_memory_object_stream[SessionMessage](16)
    replies = from_server.clone()  # ours: the server closes its own copy when it stops

    read_send, reads = anyio.create_memory_object_stream[tuple[list[Line], bool]](math.inf)
    room = threading.Semaphore(READS_AHEAD)
    loop = asyncio.get_running_loop()

    delivering = anyio.CancelScope()
    watching = anyio.CancelScope()
    owed = Owed()

    def take(batch: tuple[list[Line], bool]) -> None:
        try:
            read_send.send_nowait(batch)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):  # the server stopped taking messages
            pass

    def post(lines: list[Line], ended: bool) -> None:  # from the reader thread
        loop.call_soon_threadsafe(take, (lines, ended))

    async def deliver() -> None:
        with delivering:
            async with reads:
                async for lines, ended in reads:
                    room.release()
                    for line in lines:
                        message = parsed_or_internal_error(*line, limit)
                        try:
                            if isinstance(message, Unusable):
                                owed.refused(message.reply)
                                await replies.send(message.reply)
                            elif message is not None:
                                owed.came_in(message)
                                await to_server_send.send(message)
                        except (anyio.BrokenResourceError, anyio.ClosedResourceError):  # the server stopped: nobody to hand it to
                            return
                    if ended:
                        await finish_input()
                        return

    async def finish_input() -> None:
        # The client's open questions are answered in its place; the calls still running owe answers (see _stdio_owed).
        for answer in owed.input_end():
            await tell_server(answer)
        while not owed.settled:
            await anyio.sleep(OWED_POLL_S)
        to_server_send.close()

    async def end_input_on_stop() -> None:
        with watching:
            await stop.asked.wait()
            delivering.cancel()  # what the client sends from now on is not read
            await finish_input()

    output = _Output(wire_out)

    async def tell_server(answer: SessionMessage) -> None:
        try:
            await to_server_send.send(answer)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):  # the server stopped: no question is left open
            pass

    async def write_output() -> None:
        reader_gone = False
        async with outgoing:
            async for message in outgoing:
                if reader_gone:
                    continue  # taken and dropped, so that the server is never blocked on an answer nobody can read
                try:
                    rest = output.write_now(encode(message))
                    if rest:
                        await anyio.to_thread.run_sync(output.write_waiting, bytes(rest), stop.flag)
                except BrokenPipeError:
                    # The client closed its end of our output: nothing can reach it any more, so serving ends
                    # as at the end of input, without waiting for answers that have nowhere to go.
                    reader_gone = True
                    delivering.cancel()
                    watching.cancel()
                    to_server_send.close()
                    continue
                for answer in owed.went_out(message):  # a question asked after the input ended
                    task_group.start_soon(tell_server, answer)

    try:
        async with anyio.create_task_group() as task_group:
            task_group.start_soon(write_output)
            task_group.start_soon(deliver)
            task_group.start_soon(end_input_on_stop)
            reader = threading.Thread(target=_read_forever, args=(wire_in, limit, post, room), name="opgate stdin", daemon=True)
            reader.start()
            yield to_server, from_server
            delivering.cancel()  # the server stopped: what the client sends now has nobody to go to
            watching.cancel()
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
    lost. They stop serving instead, as the end of input does: no more
    messages are read, and the calls running send their answers for up to
    :data:`STOP_GRACE_S` (as over HTTP); then serving ends (a call still
    running finishes first: its thread cannot be abandoned). They stay
    caught until serving has ended, so a second one cannot cut that short.
    Returns the number of the signal that stopped it, ``None`` when the
    input closed.
    """
    stopped_by: list[int] = []

    async def stop_on(received: Any, stop: Stop, serving: anyio.CancelScope) -> None:
        async for number in received:
            stopped_by.append(number)
            if not stop.flag.is_set():
                stop.set()
                # The calls running answer within the grace, as over HTTP; then serving ends whatever is left.
                await anyio.sleep(STOP_GRACE_S)
                serving.cancel()

    async def serve() -> None:
        stop = Stop()
        with anyio.open_signal_receiver(*_stop_signals()) as received:
            async with anyio.create_task_group() as group:
                with anyio.CancelScope() as serving:
                    group.start_soon(stop_on, received, stop, serving)
                    async with guarded_stdio(stop=stop) as (read_stream, write_stream):
                        await server.server.run(read_stream, write_stream, server.server.create_initialization_options())
                group.cancel_scope.cancel()

    anyio.run(serve)
    return stopped_by[0] if stopped_by else None
