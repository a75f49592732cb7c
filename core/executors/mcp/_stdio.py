"""The stdio transport to an upstream server, with a bound on the size of one message.

The SDK's ``stdio_client`` keeps whatever the server writes until a newline
comes, joining each new chunk onto the whole line so far: one 60 MB answer
took minutes of copying, held the memory, and every other call on that pipe
waited behind it. This reader keeps a line's chunks in a list (one join per
line) and stops at :data:`MAX_ANSWER_BYTES`, the bound the HTTP executor
puts on an API's answer. A line past it cannot be handed to the request that
waits for it (its id may be anywhere in it), so the session ends: the calls
in flight fail saying why, and the next call starts the server again.

Spawning, the spec's shutdown sequence and the stdout drain are the SDK's
own (its module-private helpers, pinned by ``mcp>=2.3,<2.4`` in pyproject.toml).
"""

from __future__ import annotations

import contextlib
import json
import re
import subprocess
from collections.abc import Callable
from typing import Any

import anyio
import mcp_types as types
from mcp.client.stdio import (
    StdioServerParameters,
    _create_platform_compatible_process,
    _drain_stdout,
    _get_executable_command,
    _stop_server_process,
    get_default_environment,
)
from mcp.shared.message import SessionMessage

from .._base import MAX_ANSWER_BYTES
from ._stderr_tail import StderrTail
from ._unreadable import UNREADABLE, first_reason


@contextlib.asynccontextmanager
async def bounded_stdio_client(server: StdioServerParameters, stderr: StderrTail, on_too_large: Callable[[int], None], limit: int = MAX_ANSWER_BYTES):
    """The SDK's ``(read, write)`` streams to a spawned server; a message over ``limit`` bytes calls ``on_too_large`` and ends the session.
    The server's stderr is read into ``stderr`` (its end says why a server that failed to start stopped)."""
    command = await _get_executable_command(server.command)
    process = await _create_platform_compatible_process(
        command=command, args=server.args, env=get_default_environment() | (server.env or {}), errlog=subprocess.PIPE, cwd=server.cwd,  # type: ignore[arg-type]
    )
    read_writer, read_stream = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    write_stream, write_reader = anyio.create_memory_object_stream[SessionMessage](0)
    writer_done = anyio.Event()
    stderr_done = anyio.Event()

    async def read_stderr() -> None:
        try:
            async for chunk in process.stderr:
                stderr.feed(chunk)
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            pass
        finally:
            stderr.end()
            stderr_done.set()

    async def read_stdout() -> None:
        try:
            # Closed before the drain: a session past the bound must end now, not when the server stops writing.
            async with read_writer:
                async for line in _lines(process.stdout, limit, on_too_large):
                    await read_writer.send(_parsed(line))
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, ConnectionError):
            pass  # the session or our own shutdown closed a stream under the read; the session sees the end either way
        finally:
            await _drain_stdout(process)

    async def write_stdin() -> None:
        try:
            async with write_reader:
                async for message in write_reader:
                    text = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                    await process.stdin.send((text + "\n").encode())
        except (anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            await read_writer.aclose()  # a server that stopped reading must not leave a request waiting forever
        finally:
            writer_done.set()

    async with anyio.create_task_group() as group:
        group.start_soon(read_stdout)
        group.start_soon(write_stdin)
        group.start_soon(read_stderr)
        try:
            yield read_stream, write_stream
        finally:
            with anyio.CancelScope(shield=True):  # the server is stopped even when the caller is cancelled
                read_stream.close()
                write_stream.close()
                with anyio.move_on_after(0.5):
                    await writer_done.wait()
                await _stop_server_process(process)
                with anyio.move_on_after(0.5):  # the stopped server's last words, for the reason it failed
                    await stderr_done.wait()
                for stream in (read_stream, write_stream, read_writer, write_reader):
                    await stream.aclose()
            group.cancel_scope.cancel()


async def _lines(stdout: Any, limit: int, on_too_large: Callable[[int], None]):
    """Each newline-ended line of ``stdout`` as bytes; at a line longer than ``limit``, ``on_too_large(size)`` and the end."""
    pending: list[bytes] = []
    size = 0
    with contextlib.suppress(anyio.EndOfStream):
        while True:
            chunk = await stdout.receive()
            start = 0
            while (end := chunk.find(b"\n", start)) >= 0:
                if size + end - start > limit:
                    on_too_large(size + end - start)
                    return
                pending.append(chunk[start:end])
                yield b"".join(pending)
                pending, size, start = [], 0, end + 1
            size += len(chunk) - start
            if size > limit:
                on_too_large(size)
                return
            pending.append(chunk[start:])


def _parsed(line: bytes) -> SessionMessage | Exception:
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_json(line, by_name=False))
    except ValueError as exc:
        # An answer the SDK cannot read (JSON nested past its reader's limit, a malformed envelope) would leave its
        # request waiting until its timeout, saying nothing: it fails now, saying why. Anything else is logged.
        refused = _unreadable_answer(line, exc)
        return refused if refused is not None else exc


def _unreadable_answer(line: bytes, exc: ValueError) -> SessionMessage | None:
    """A JSON-RPC error for the request an unreadable answer was for, when its id can be told; else None."""
    try:
        message = json.loads(line)
    except (ValueError, RecursionError):
        message = None
    if isinstance(message, dict):
        ident = message.get("id")
        if not ("result" in message or "error" in message) or isinstance(ident, bool) or not isinstance(ident, (int, str)):
            return None
        exc = _as_answer(message, exc)
    else:
        found = _LEADING_ID.match(line)  # too deep even for Python's reader: the id the SDK wrote first is still read
        if found is None:
            return None
        ident = json.loads(found.group(1))
    # A parse error in opgate's words: the connection turns it into AnswerUnreadable, as the SDK's own over HTTP.
    error = types.JSONRPCError(jsonrpc="2.0", id=ident, error=types.ErrorData(code=types.PARSE_ERROR, message=f"{UNREADABLE} ({first_reason(exc)})"))
    return SessionMessage(error)


def _as_answer(message: dict[str, Any], exc: ValueError) -> ValueError:
    """Why an answer is refused, read as the answer it is: the union's first guess was a request ("method: Field required")."""
    shape = types.JSONRPCResponse if "result" in message else types.JSONRPCError
    try:
        shape.model_validate(message, by_name=False)
    except ValueError as precise:
        return precise
    except RecursionError:
        pass
    return exc


_LEADING_ID = re.compile(rb'\s*\{\s*"jsonrpc"\s*:\s*"2\.0"\s*,\s*"id"\s*:\s*(-?\d+|"(?:[^"\\]|\\.)*")\s*,\s*"(?:result|error)"')
