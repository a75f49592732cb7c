"""The servers opgate's MCP layer is measured against, each run in its own process like ``opgate serve``.

Run by the benchmarks as ``python bench/_mcp_peers.py KIND TRANSPORT [DB]``:

- ``floor``: the official SDK's low-level ``Server`` with one ``exec`` tool
  that answers ``{}`` at once. Nothing can be faster over the same SDK
  transport: it is the price of the protocol alone.
- ``fastmcp``: FastMCP (the ``bench`` extra, pinned) with one ``exec`` tool
  that makes the same opgate call on the same workspace file
  (``Gateway.exec(op, args)``) and returns its envelope. The work is
  identical; what differs is the server framework around it.

TRANSPORT is ``stdio`` or ``http``. Over HTTP the server prints
``... listening on URL`` on standard error, as ``opgate serve --http`` does,
and listens on a socket made like opgate's (``IPPROTO_TCP``, so asyncio turns
Nagle's algorithm off on each connection): the transports compared are the
same down to the socket options.
"""

from __future__ import annotations

import socket
import sys
from pathlib import Path
from typing import Any


def loopback_socket() -> socket.socket:
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    return sock


def serve_asgi(app: Any, label: str) -> None:
    import uvicorn

    sock = loopback_socket()
    print(f"{label} listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on")).run(sockets=[sock])


def floor_server() -> Any:
    import mcp_types as types
    from mcp.server import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="exec", input_schema={"type": "object"})])

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(type="text", text="{}")])

    return Server("floor", on_list_tools=list_tools, on_call_tool=call_tool)


def serve_floor(transport: str) -> None:
    server = floor_server()
    if transport == "http":
        serve_asgi(server.streamable_http_app(streamable_http_path="/mcp"), "floor")
        return
    import anyio
    from mcp.server.stdio import stdio_server

    async def run() -> None:
        async with stdio_server() as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    anyio.run(run)


def fastmcp_server(db: Path) -> Any:
    from fastmcp import FastMCP

    from opgate.core import Gateway

    gateway = Gateway(db_path=db)
    mcp = FastMCP("fastmcp-peer")

    @mcp.tool(name="exec")
    def exec_op(op: str, args: dict[str, Any] | None = None) -> dict[str, Any]:
        """Run an opgate op on the workspace and return its envelope."""
        return gateway.exec(op, args or {})

    return mcp


def serve_fastmcp(transport: str, db: Path) -> None:
    mcp = fastmcp_server(db)
    if transport == "http":
        serve_asgi(mcp.http_app(path="/mcp"), "fastmcp")
        return
    mcp.run(transport="stdio", show_banner=False, log_level="WARNING")


def main() -> None:
    kind, transport, *rest = sys.argv[1:]
    if kind == "floor":
        serve_floor(transport)
    elif kind == "fastmcp":
        serve_fastmcp(transport, Path(rest[0]))
    else:
        raise SystemExit(f"unknown peer {kind!r}")


if __name__ == "__main__":
    main()
