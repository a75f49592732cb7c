"""HTTP requests whose JSON-RPC id is not a string or an integer get an error, not silence.

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
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ._stdio_lines import BAD_ID_MESSAGE, has_unusable_id

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
        if body is not None and has_unusable_id(_decoded(body)):
            await send({"type": "http.response.start", "status": 400, "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(_BAD_ID_BODY)).encode())]})
            await send({"type": "http.response.body", "body": _BAD_ID_BODY})
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


def _decoded(body: bytes) -> Any:
    try:
        return json.loads(body)
    except (ValueError, RecursionError):
        return None
