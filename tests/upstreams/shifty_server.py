"""A tiny stdio MCP server (the SDK's MCPServer) whose tools change between runs, for the pinning tests.

``SHIFTY_DESCRIPTION`` sets greet's description, so a second run with another
value is the same tool, changed. ``SHIFTY_EXTRA=1`` adds a tool. Calling
``grow`` adds ``farewell`` while running and sends
``notifications/tools/list_changed``.
"""

import os

from mcp.server.mcpserver import Context, MCPServer

server = MCPServer("shifty")


@server.tool(description=os.environ.get("SHIFTY_DESCRIPTION", "Greets a person by name."))
def greet(name: str) -> str:
    return f"Hello, {name}!"


if os.environ.get("SHIFTY_EXTRA") == "1":

    @server.tool(description="Counts the letters of a word.")
    def count_letters(word: str) -> int:
        return len(word)


def farewell(name: str) -> str:
    return f"Goodbye, {name}!"


@server.tool(description="Adds the farewell tool, and tells the client that its tools changed.")
async def grow(ctx: Context) -> str:
    server.add_tool(farewell, description="Says goodbye to a person.")
    await ctx.session.send_tool_list_changed()
    return "grown"


if __name__ == "__main__":
    server.run("stdio")
