"""A tiny stdio MCP server (the SDK's MCPServer) whose tool fails with a JSON-RPC error of the code it is given."""

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
    server.run("stdio")
