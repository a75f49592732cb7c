"""A tiny MCP server (the SDK's MCPServer, over stdio or streamable HTTP) whose tools fail with a given JSON-RPC code or answer with a given size."""

from mcp.server.mcpserver import Context, MCPServer
from mcp.shared.exceptions import MCPError


class CountingServer(MCPServer):
    """Counts the tools/list requests it answers."""

    lists = 0

    async def list_tools(self):
        CountingServer.lists += 1
        return await super().list_tools()


server = CountingServer("erring")


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


@server.tool(description="Says its tools changed, the given number of times, then answers.")
async def storm(times: int, ctx: Context) -> int:
    for _ in range(times):
        await ctx.session.send_tool_list_changed()
    return times


@server.tool(description="Writes its last words to stderr and exits at once, mid-call.")
def crash(words: str) -> str:
    import os
    import sys

    sys.stderr.write(words + "\n")
    sys.stderr.flush()
    os._exit(7)


@server.tool(description="Answers, then writes its last words to stderr and exits after the given seconds, between calls.")
def leave(words: str, after_s: float) -> str:
    import os
    import sys
    import threading
    import time

    def later() -> None:
        time.sleep(after_s)
        sys.stderr.write(words + "\n")
        sys.stderr.flush()
        os._exit(7)

    threading.Thread(target=later, daemon=True).start()
    return "leaving"


@server.tool(description="How many tools/list requests the server has answered.")
def lists() -> int:
    return CountingServer.lists


if __name__ == "__main__":
    import sys

    # erring_server.py [http PORT [json]]: streamable HTTP on loopback (SSE answers, or JSON bodies with "json").
    if sys.argv[1:2] == ["http"]:
        server.run("streamable-http", port=int(sys.argv[2]), json_response=sys.argv[3:4] == ["json"])
    else:
        server.run("stdio")
