"""MCP over standard input and output, answering every line it cannot use.

The SDK's stdio transport drops a line it cannot parse without a word, so a
client that sent broken JSON, or a request without a method, would wait
forever. Here each such line gets its JSON-RPC error (parse error or invalid
request, with the request's id when it can be read), and a line over the size
limit is skipped unread instead of being held in memory. Valid messages go to
the SDK's server loop unchanged.

Standard output is the protocol: while serving, file descriptor 1 points at
standard error, so a stray print or a library's chatter cannot corrupt it;
the protocol is written to a private duplicate.
"""

from __future__ import annotations

import json
import logging
import os
import re
import sys
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, BinaryIO

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from opgate.core import safe_json

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""The longest message line read, as the SDK's HTTP transport limits a request body (4 MiB)."""

MAX_MESSAGE_DEPTH = 2 * safe_json.MAX_DEPTH
"""How deeply a message may nest: room for the JSON-RPC levels around arguments that exec then checks and names."""

_CHUNK = 64 * 1024
# An id is read from a skipped line only when it comes first (after jsonrpc or method): an "id" inside params is not the request's.
_LEADING_ID = re.compile(rb'^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*(-?\d{1,18}|"[^"\\]{0,200}")')


@dataclass(frozen=True)
class Unusable:
    """A line that is not a message: the error to answer it with."""

    reply: SessionMessage


def read_line(stream: BinaryIO, limit: int) -> tuple[bytes, int] | None:
    """The next line (its first bytes only, when over ``limit``) and its full length; ``None`` at end of input."""
    line = stream.readline(limit + 1)
    if not line:
        return None
    size = len(line)
    if size <= limit or line.endswith(b"\n"):
        return line, size
    head, rest = line[:_CHUNK], line
    while rest and not rest.endswith(b"\n"):
        rest = stream.readline(_CHUNK)
        size += len(rest)
    return head, size


def _error(request_id: types.RequestId | None, code: int, message: str) -> Unusable:
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
    return Unusable(SessionMessage(error))


def _request_id(value: Any) -> types.RequestId | None:
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else None


def _leading_id(head: bytes) -> types.RequestId | None:
    match = _LEADING_ID.match(head)
    return _request_id(json.loads(match.group(1))) if match else None


def parse_line(line: bytes, size: int, limit: int) -> SessionMessage | Unusable | None:
    """The message on one line, or the error to answer it with; ``None`` for a blank line."""
    if size > limit:
        return _error(_leading_id(line), types.INVALID_REQUEST, f"message of {size} bytes is over the {limit}-byte limit; it was not read")
    if not line.strip():
        return None
    try:
        # Text that is not UTF-8 goes on to exec, which refuses it naming the field.
        data = safe_json.loads(line, max_depth=MAX_MESSAGE_DEPTH, max_chars=None, what="the message", check_text=False)
    except safe_json.JsonInputError as exc:
        return _error(None, types.PARSE_ERROR, f"Parse error: {exc.message}")
    try:
        return SessionMessage(types.jsonrpc_message_adapter.validate_python(data, by_name=False))
    except (ValidationError, ValueError, RecursionError):
        request_id = _request_id(data.get("id")) if isinstance(data, dict) else None
        return _error(request_id, types.INVALID_REQUEST, "Invalid request: a JSON-RPC 2.0 message needs jsonrpc '2.0' and a method (or a result or error), with params as an object")


def _parsed_or_internal_error(line: bytes, size: int, limit: int) -> SessionMessage | Unusable | None:
    # The reader thread ends on any exception, and the server with it: no line may raise.
    try:
        return parse_line(line, size, limit)
    except Exception:
        log.exception("could not read a message line")
        return _error(None, types.INTERNAL_ERROR, "Internal error: the message could not be read; it was skipped")


def encode(message: SessionMessage) -> bytes:
    """One line of the protocol; an answer that cannot be written as JSON becomes an error for the same request."""
    try:
        return message.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"
    except Exception:
        log.exception("could not encode an answer")
        request_id = getattr(message.message, "id", None)
        if not isinstance(request_id, int) and not (isinstance(request_id, str) and safe_json.is_clean_text(request_id)):
            request_id = None
        fallback = _error(request_id, types.INTERNAL_ERROR, "Internal error: the answer could not be written as JSON")
        return fallback.reply.message.model_dump_json(by_alias=True, exclude_unset=True).encode() + b"\n"


def _read_forever(stream: BinaryIO, limit: int, deliver: Any, token: Any) -> None:
    # A daemon thread, unlike anyio's workers, never keeps the process alive blocked on a read.
    while True:
        read = read_line(stream, limit)
        try:
            anyio.from_thread.run(deliver, read, token=token)
        except Exception:  # the event loop or the streams are gone: nothing left to read for
            return
        if read is None:
            return


def _write(stream: BinaryIO, data: bytes) -> None:
    stream.write(data)
    stream.flush()


@asynccontextmanager
async def guarded_stdio(limit: int = MAX_MESSAGE_BYTES) -> AsyncIterator[tuple[Any, Any]]:
    """``(read_stream, write_stream)`` over this process's stdin and stdout, for ``Server.run``."""
    wire_out = os.fdopen(os.dup(1), "wb")
    saved_stdout = os.dup(1)
    os.dup2(2, 1)
    to_server_send, to_server = anyio.create_memory_object_stream[SessionMessage | Exception](0)
    from_server, outgoing = anyio.create_memory_object_stream[SessionMessage](16)
    replies = from_server.clone()  # ours: the server closes its own copy when it stops

    async def deliver(read: tuple[bytes, int] | None) -> None:
        if read is None:
            to_server_send.close()
            return
        message = _parsed_or_internal_error(*read, limit)
        if isinstance(message, Unusable):
            await replies.send(message.reply)
        elif message is not None:
            await to_server_send.send(message)

    async def write_output() -> None:
        async with outgoing:
            async for message in outgoing:
                await anyio.to_thread.run_sync(_write, wire_out, encode(message))

    reader = threading.Thread(target=_read_forever, args=(sys.stdin.buffer, limit, deliver, anyio.lowlevel.current_token()), name="opgate stdin", daemon=True)
    try:
        async with anyio.create_task_group() as task_group:
            task_group.start_soon(write_output)
            reader.start()
            yield to_server, from_server
            # The writer drains what the server answered last, then ends when both senders are closed.
            from_server.close()
            replies.close()
    finally:
        os.dup2(saved_stdout, 1)
        os.close(saved_stdout)
        wire_out.close()


def serve_stdio(server: Any) -> None:
    """Serve a :class:`GatewayMCPServer` over stdin and stdout until stdin closes."""

    async def serve() -> None:
        async with guarded_stdio() as (read_stream, write_stream):
            await server.server.run(read_stream, write_stream, server.server.create_initialization_options())

    anyio.run(serve)
