"""What the MCP layer costs: start-up, a call in process, and tools/call over stdio against the SDK floor and FastMCP.

Run: python bench/bench_mcp.py [--calls 200]   (FastMCP: pip install -e '.[bench]')
1. Start-up: from spawning ``opgate serve`` (stdio) to the first tools/list answer.
2. Per call in process, median and p95 in ms, for help (an op's usage) and
   exec (a read): the core's ToolRouter, no protocol at all.
3. tools/call ``exec onto.project.list`` over stdio, driven by the SDK's
   client in both protocol eras (the 2026-07-28 per-request envelope, and the
   initialize handshake), against two servers in their own processes
   (bench/_mcp_peers.py): the floor, the SDK's low-level ``Server`` with a
   tool that answers ``{}`` at once, and FastMCP with a tool making the same
   opgate call on the same workspace. Goal (issue 16): within 1.5x of the
   floor, and no slower than FastMCP. bench_mcp_http.py does the same over
   streamable HTTP.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
from _mcp_compare import ERAS, HEADERS, compare, peer_command, rows  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.modes import ToolRouter  # noqa: E402

CALLS = {
    "help onto.task.create": ("help", {"path": "onto.task.create"}),
    "exec onto.project.list": ("exec", {"op": "onto.project.list"}),
}
OURS, FLOOR, PEER = "opgate serve", "floor (SDK, no-op tool)", "FastMCP (same opgate call)"


def stdio_server(command: list[str]) -> StdioServerParameters:
    # The SDK's client passes the server only a few safe variables; keep this process's import path.
    env = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
    return StdioServerParameters(command=command[0], args=command[1:], env=env)


def serve_command(db: Path) -> list[str]:
    return [sys.executable, "-m", "opgate", "--db", str(db), "serve"]


def in_process_rows(db: Path, calls: int) -> list[list[object]]:
    router = ToolRouter(Gateway(db_path=db))
    rows = []
    for label, (tool, arguments) in CALLS.items():
        router.call(tool, arguments)
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            router.call(tool, arguments)
            times.append((time.perf_counter() - started) * 1000)
        rows.append(["in process (ToolRouter)", label, f"{median(times):.2f}", f"{p95(times):.2f}"])
    return rows


async def startup_ms(db: Path) -> float:
    started = time.perf_counter()
    async with Client(stdio_server(serve_command(db)), mode="legacy") as client:
        await client.list_tools()
        return (time.perf_counter() - started) * 1000


async def run(folder: Path, calls: int) -> None:
    db = folder / "bench.db"
    Gateway(db_path=db).store.close()  # the demo workspace, made once
    startups = [await startup_ms(db) for _ in range(3)]
    print_table("start-up over stdio: spawn to the first tools/list (ms, median of 3)", ["measure", "ms"], [["opgate serve", f"{median(startups):.0f}"]])
    print_table(f"one tool call in process (ms, over {calls} calls)", ["path", "call", "median", "p95"], in_process_rows(db, calls))
    servers = {OURS: serve_command(db), FLOOR: peer_command("floor", "stdio", db), PEER: peer_command("fastmcp", "stdio", db)}
    table = []
    for era, mode in ERAS.items():
        measured = await compare({name: stdio_server(command) for name, command in servers.items()}, mode, calls)
        table += rows(era, measured, OURS, FLOOR, PEER)
    print_table(f"tools/call exec onto.project.list over stdio ({calls} calls each)", HEADERS, table)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        anyio.run(run, Path(tmp), options.calls)


if __name__ == "__main__":
    main()
