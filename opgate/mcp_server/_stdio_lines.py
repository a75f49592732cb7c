"""The stdio protocol's lines: cut from the bytes read, parsed into messages, and written back.

Each line that is not a usable message gets its JSON-RPC error (parse error
or invalid request, with the request's id when it can be read), because the
SDK's own stdio transport drops such a line without a word and its client
would wait forever. A line over the size limit is skipped unread: only its
first bytes are kept, to find the request's id.
"""

from __future__ import annotations

import json
import logging
import re
from dataclasses import dataclass
from typing import Any

import mcp_types as types
from mcp.shared.message import SessionMessage
from pydantic import ValidationError

from opgate.core import safe_json

log = logging.getLogger(__name__)

MAX_MESSAGE_BYTES = 4 * 1024 * 1024
"""The longest message line read, as the SDK's HTTP transport limits a request body (4 MiB)."""

MAX_MESSAGE_DEPTH = 2 * safe_json.MAX_DEPTH
"""How deeply a message may nest: room for the JSON-RPC levels around arguments that exec then checks and names."""

HEAD_BYTES = 64 * 1024
"""What is kept of a line over the limit: enough to read the request's id from."""

# An id is read from a skipped line only when it comes first (after jsonrpc or method): an "id" inside params is not the request's.
# It must end where the value ends (a longer number was read as its first 18 digits, 1.5e3 as 1: an id the client never
# sent), and be a JSON number (007 made json.loads raise, and the line was answered as an internal error with a traceback).
_LEADING_ID = re.compile(rb'^\s*\{(?:\s*"(?:jsonrpc|method)"\s*:\s*"[^"\\]*"\s*,)*\s*"id"\s*:\s*(-?(?:0|[1-9]\d{0,17})|"[^"\\]{0,200}")\s*[,}]')

Line = tuple[bytes, int]
"""A line's bytes (only its head when it is over the limit) and its full length, newline included."""


@dataclass(frozen=True)
class Unusable:
    """A line that is not a message: the error to answer it with."""

    reply: SessionMessage


class LineSplitter:
    """Cuts a byte stream into lines, however the reads split it.

    A read may end inside a line or hold several; ``feed`` gives back the
    lines each read completes. A line that grows past ``limit`` keeps only
    its first ``HEAD_BYTES`` while the rest is counted and dropped, so a
    huge line never sits in memory whole.
    """

    def __init__(self, limit: int = MAX_MESSAGE_BYTES):
        self.limit = limit
        self._parts: list[bytes] = []  # the unfinished line so far, while it is under the limit
        self._held = 0
        self._size = 0
        self._head: bytes | None = None  # set once the unfinished line is over the limit

    def feed(self, data: bytes) -> list[Line]:
        """The lines that ``data`` completes, in order."""
        lines: list[Line] = []
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            if self._size == 0 and end + 1 - start <= self.limit:
                lines.append((data[start:end + 1], end + 1 - start))  # the usual case: a whole line in one read
            else:
                self._add(data[start:end + 1])
                lines.append(self._take())
            start = end + 1
        if start < len(data):
            self._add(data[start:] if start else data)
        return lines

    def end(self) -> Line | None:
        """At the end of input: the last line, when it had no newline."""
        return self._take() if self._size else None

    def _add(self, piece: bytes) -> None:
        self._size += len(piece)
        if self._head is not None:
            return
        self._parts.append(piece)
        self._held += len(piece)
        if self._held > self.limit:
            self._head = b"".join(self._parts)[:HEAD_BYTES]
            self._parts, self._held = [], 0

    def _take(self) -> Line:
        if self._head is not None:
            line = self._head
        else:
            line = self._parts[0] if len(self._parts) == 1 else b"".join(self._parts)
        taken = (line, self._size)
        self._parts, self._held, self._size, self._head = [], 0, 0, None
        return taken


def _error(request_id: types.RequestId | None, code: int, message: str) -> Unusable:
    error = types.JSONRPCError(jsonrpc="2.0", id=request_id, error=types.ErrorData(code=code, message=message))
    return Unusable(SessionMessage(error))


def _request_id(value: Any) -> types.RequestId | None:
    return value if isinstance(value, (str, int)) and not isinstance(value, bool) else None


BAD_ID_MESSAGE = "Invalid request: a request's id is a string or an integer"
NOT_A_MESSAGE = "Invalid request: a JSON-RPC 2.0 message needs jsonrpc '2.0' and a method (or a result or error), with params as an object"


def request_id_of(data: Any) -> types.RequestId | None:
    """The id to answer a message that could not be read with: its own when it has a usable one, else null."""
    return _request_id(data.get("id")) if isinstance(data, dict) else None


def has_unusable_id(data: Any) -> bool:
    """Whether a decoded message has an id that is not a string or an integer (1.5, null, true, [1]).

    The SDK reads such a request as a notification, which nobody answers: its
    client would wait forever. Both transports answer it with an error instead.
    """
    return isinstance(data, dict) and "id" in data and _request_id(data["id"]) is None


def _leading_id(head: bytes) -> types.RequestId | None:
    match = _LEADING_ID.match(head)
    if match is None:
        return None
    try:
        return _request_id(json.loads(match.group(1)))
    except ValueError:  # a raw control character or bytes that are not UTF-8 in a string id: not one to answer with
        return None


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
        message = types.jsonrpc_message_adapter.validate_python(data, by_name=False)
    except (ValidationError, ValueError, RecursionError):
        return _error(request_id_of(data), types.INVALID_REQUEST, NOT_A_MESSAGE)
    if type(message) is types.JSONRPCNotification and has_unusable_id(data):
        return _error(None, types.INVALID_REQUEST, BAD_ID_MESSAGE)
    return SessionMessage(message)


def parsed_or_internal_error(line: bytes, size: int, limit: int) -> SessionMessage | Unusable | None:
    """:func:`parse_line`, never raising: whatever reads the lines must go on reading."""
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
