"""HTTP requests whose JSON-RPC id is not a string or an integer get an error, not silence; bodies that are not one
JSON-RPC message get the error stdio gives them, and an MCP-Protocol-Version the SDK does not know gets a 400 that says so.

The SDK's handshake-era transport reads ``{"id": 1.5, "method": ...}`` as a
notification and answers 202 with no body, so the client waits forever for
an answer that never comes; its 2026-07-28 entry refuses such a body but
without saying why. This middleware answers both eras alike, as the stdio
transport does (see ``_stdio_lines``): 400 and an Invalid Request error with
id null. Bodies it cannot read (not JSON, too deep, over the size limit) go on
untouched to the SDK, which answers them itself.
"""

from __future__ import annotations

import json
from typing import Any

import mcp_types as types
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE
from mcp_types.version import KNOWN_PROTOCOL_VERSIONS
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._stdio_lines import BAD_ID_MESSAGE, NOT_A_MESSAGE, has_unusable_id, request_id_of

_BAD_ID_BODY = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": types.INVALID_REQUEST, "message": BAD_ID_MESSAGE}}).encode()


class RequestIdCheck:
    """Answers a POST to ``path`` whose id is unusable; passes everything else on with its body replayed."""

    def __init__(self, app: ASGIApp, *, path: str, limit: int = DEFAULT_MAX_REQUEST_BODY_SIZE):
        self.app = app
        self.path = path
        self.limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "POST" or scope["path"].rstrip("/") != self.path:
            await self.app(scope, receive, send)
            return
        received, body = await _read_up_to(receive, self.limit)
        data = _decoded(body) if body is not None else _UNREAD
        if data is not _UNREAD and has_unusable_id(data):
            await _refuse(send, _BAD_ID_BODY)
            return
        version = _unknown_version(scope)
        if version is not None:
            # The SDK sends an unknown version to its 2026 entry, which answers about params._meta, not about the version.
            message = f"Unsupported MCP-Protocol-Version {version}; this server speaks {', '.join(KNOWN_PROTOCOL_VERSIONS)}"
            await _refuse(send, json.dumps({"jsonrpc": "2.0", "id": request_id_of(data), "error": {"code": types.INVALID_REQUEST, "message": message}}).encode())
            return
        if data is not _UNREAD and data is not _NOT_JSON and not _looks_like_a_message(data):
            # The SDK answers these -32602 with pydantic's dump of four failed models (Python reprs, links to pydantic's site).
            await _refuse(send, json.dumps({"jsonrpc": "2.0", "id": request_id_of(data), "error": {"code": types.INVALID_REQUEST, "message": NOT_A_MESSAGE}}).encode())
            return

        async def replay() -> Message:
            return received.pop(0) if received else await receive()

        await self.app(scope, replay, send)


async def _read_up_to(receive: Receive, limit: int) -> tuple[list[Message], bytes | None]:
    """The messages read, and the whole body when it ended within ``limit`` bytes (else ``None``: the SDK refuses it)."""
    received: list[Message] = []
    size = 0
    while size <= limit:
        message = await receive()
        received.append(message)
        if message["type"] != "http.request":
            return received, None
        size += len(message.get("body", b""))
        if not message.get("more_body", False):
            return received, b"".join(part.get("body", b"") for part in received) if size <= limit else None
    return received, None


_UNREAD = object()
_NOT_JSON = object()


def _decoded(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return _NOT_JSON


def _looks_like_a_message(data: Any) -> bool:
    """The shape stdio's reader checks in full (one object, jsonrpc 2.0, a method or a result or an error, params an object);
    a body that passes may still be refused by the SDK, in its own words."""
    return (
        isinstance(data, dict) and data.get("jsonrpc") == "2.0"
        and (isinstance(data.get("method"), str) or "result" in data or "error" in data)
        and isinstance(data.get("params", {}), dict)
    )


_VERSION_HEADER = b"mcp-protocol-version"


def _unknown_version(scope: Scope) -> str | None:
    """The MCP-Protocol-Version header, quoted and cut short, when it names no version the SDK knows; else None."""
    for name, value in scope["headers"]:
        if name == _VERSION_HEADER:
            text = value.decode("latin-1")
            if text in KNOWN_PROTOCOL_VERSIONS:
                return None
            shown = repr(text)
            return shown if len(shown) <= 60 else shown[:59] + "…"
    return None


async def _refuse(send: Send, body: bytes) -> None:
    await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
