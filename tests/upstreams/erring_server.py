"""A tiny MCP server (the SDK's MCPServer, over stdio or streamable HTTP) whose tools fail with a given JSON-RPC code or answer with a given size."""

from mcp.server.mcpserver import MCPServer
from mcp.shared.exceptions import MCPError

server = MCPServer("erring")


@server.tool(description="Fails with a JSON-RPC error of the given code.")
def fail(code: int) -> str:
    raise MCPError(code=code, message="the widget is jammed")


@server.tool(description="Answers with the server's process id.")
def whoami() -> int:
    import os

    return os.getpid()


@server.tool(description="Answers with a text of the given number of bytes.")
def sized(size: int) -> str:
    return "x" * size


if __name__ == "__main__":
    import sys

    # erring_server.py [http PORT [json]]: streamable HTTP on loopback (SSE answers, or JSON bodies with "json").
    if sys.argv[1:2] == ["http"]:
        server.run("streamable-http", port=int(sys.argv[2]), json_response=sys.argv[3:4] == ["json"])
    else:
        server.run("stdio")
