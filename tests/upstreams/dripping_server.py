"""A small streamable HTTP MCP server on loopback whose answers never end, or end too late, or are too large.

Written on bare asyncio streams, not an SDK: its tools misbehave at the
HTTP level, below anything an SDK server lets a tool do.

- ``whoami``: the server's process id (a healthy answer).
- ``drip``: a JSON body sent a byte at a time, every 0.2 s, forever.
- ``sse_drip``: an event stream that sends a comment every 0.2 s, forever, and never the answer.
- ``flood``: a JSON body without a length, sent as fast as the client reads, forever.
- ``declared``: a JSON body whose Content-Length says 200 MB (then a byte every 0.2 s).
- ``open_bodies``: how many of the bodies above are still being sent (the client has not hung up on them).
- ``deep`` and ``sse_deep``: an answer nested 300 levels deep (past the SDK's JSON reader, within Python's), as a JSON body or an event.

With ``pages`` after the port, ``tools/list`` never ends: each page of 500 tools names a next one; with
``drip_start``, the answer to ``initialize`` is a body that drips for ever.

Usage: ``python dripping_server.py PORT [pages | drip_start]``.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import sys

ENDLESS_PAGES = sys.argv[2:3] == ["pages"]
DRIP_START = sys.argv[2:3] == ["drip_start"]
TOOLS = ["whoami", "drip", "sse_drip", "flood", "declared", "open_bodies", "deep", "sse_deep"]
open_bodies = 0


def _tool_list() -> dict:
    return {"tools": [{"name": name, "description": f"The {name} tool.", "inputSchema": {"type": "object", "properties": {}}} for name in TOOLS]}


def _head(status: str, content_type: str | None, extra: str = "") -> bytes:
    lines = [f"HTTP/1.1 {status}", "mcp-session-id: dripping-1", extra]
    if content_type:
        lines.append(f"content-type: {content_type}")
    return ("\r\n".join(line for line in lines if line) + "\r\n").encode()


def _json(status: str, body: dict | None) -> bytes:
    data = json.dumps(body).encode() if body is not None else b""
    return _head(status, "application/json" if body is not None else None, f"content-length: {len(data)}") + b"\r\n" + data


async def _endless(writer: asyncio.StreamWriter, head: bytes, first: bytes, more: bytes, pause: float, chunked: bool = True) -> None:
    """Send ``first``, then ``more`` every ``pause`` seconds until the client hangs up."""
    global open_bodies
    open_bodies += 1
    try:
        writer.write(head + (b"transfer-encoding: chunked\r\n\r\n" if chunked else b"\r\n"))
        for piece in itertools.chain([first], itertools.repeat(more)):
            if piece:
                writer.write(b"%x\r\n%s\r\n" % (len(piece), piece) if chunked else piece)
            await writer.drain()
            await asyncio.sleep(pause)
    except (ConnectionError, OSError):
        pass
    finally:
        open_bodies -= 1


async def _answer(message: dict, writer: asyncio.StreamWriter) -> bool:
    """Answer one JSON-RPC message; False when the connection must close afterwards."""
    method, ident = message.get("method"), message.get("id")
    if ident is None:
        writer.write(_json("202 Accepted", None))
        return True
    if method == "initialize" and DRIP_START:
        await _endless(writer, _head("200 OK", "application/json"), b'{"jsonrpc": "2.0", ', b" ", 0.2)
        return False
    if method == "initialize":
        result = {"protocolVersion": message["params"]["protocolVersion"], "capabilities": {"tools": {}}, "serverInfo": {"name": "dripping", "version": "1"}}
    elif method == "tools/list":
        result = _tool_list()
        if ENDLESS_PAGES:
            cursor = int((message.get("params") or {}).get("cursor") or 0)
            result = {"tools": [{"name": f"page{cursor}_tool{n}", "description": "x" * 200, "inputSchema": {"type": "object"}} for n in range(500)], "nextCursor": str(cursor + 1)}
    elif method == "tools/call":
        tool = message["params"]["name"]
        opening = b'{"jsonrpc": "2.0", "id": %s, "result": {"content": [{"type": "text", "text": "' % json.dumps(ident).encode()
        if tool == "drip":
            await _endless(writer, _head("200 OK", "application/json"), opening, b"x", 0.2)
            return False
        if tool == "sse_drip":
            await _endless(writer, _head("200 OK", "text/event-stream"), b": waiting\n\n", b": still waiting\n\n", 0.2)
            return False
        if tool == "flood":
            await _endless(writer, _head("200 OK", "application/json"), opening, b"x" * 65536, 0)
            return False
        if tool == "declared":
            await _endless(writer, _head("200 OK", "application/json", "content-length: 200000000"), opening, b"x", 0.2, chunked=False)
            return False
        if tool in ("deep", "sse_deep"):
            deep: dict = {}
            for _ in range(300):
                deep = {"a": deep}
            answer = {"jsonrpc": "2.0", "id": ident, "result": {"content": [{"type": "text", "text": "deep"}], "structuredContent": deep}}
            if tool == "deep":
                writer.write(_json("200 OK", answer))
            else:
                event = b"event: message\ndata: " + json.dumps(answer).encode() + b"\n\n"
                writer.write(_head("200 OK", "text/event-stream", f"content-length: {len(event)}") + b"\r\n" + event)
            return True
        text = str(os.getpid()) if tool == "whoami" else str(open_bodies)
        result = {"content": [{"type": "text", "text": text}]}
    else:
        writer.write(_json("200 OK", {"jsonrpc": "2.0", "id": ident, "error": {"code": -32601, "message": f"no method {method}"}}))
        return True
    writer.write(_json("200 OK", {"jsonrpc": "2.0", "id": ident, "result": result}))
    return True


async def _serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while True:
            request_line = await reader.readline()
            if not request_line:
                return
            headers = {}
            while (line := await reader.readline()) not in (b"\r\n", b"\n", b""):
                name, _, value = line.decode().partition(":")
                headers[name.strip().lower()] = value.strip()
            body = await reader.readexactly(int(headers.get("content-length", "0")))
            verb = request_line.split()[0]
            if verb == b"POST":
                keep = await _answer(json.loads(body), writer)
            elif verb == b"DELETE":
                writer.write(_json("200 OK", None))
                keep = True
            else:
                writer.write(_json("405 Method Not Allowed", None))
                keep = True
            await writer.drain()
            if not keep:
                return
    except (ConnectionError, asyncio.IncompleteReadError, OSError):
        pass
    finally:
        writer.close()


async def main(port: int) -> None:
    server = await asyncio.start_server(_serve, "127.0.0.1", port)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1])))
