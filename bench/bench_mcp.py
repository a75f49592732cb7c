"""What the MCP layer costs: a tool call in process against the same call through ``opgate serve``.

Run: python bench/bench_mcp.py [--calls 200]
1. Start-up: from spawning ``opgate serve`` (stdio) to the first tools/list answer.
2. Per call, median and p95 in ms, for help (an op's usage) and exec (a read):
   the core's ToolRouter in process, then the SDK's client over stdio and
   over streamable HTTP on loopback, in both protocol eras (the 2026-07-28
   per-request envelope, and the initialize handshake).
The difference is the price of the protocol: JSON-RPC framing, validation by
the SDK, a worker thread per call, and the transport.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.stdio import StdioServerParameters  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.modes import ToolRouter  # noqa: E402

CALLS = {
    "help onto.task.create": ("help", {"path": "onto.task.create"}),
    "exec onto.project.list": ("exec", {"op": "onto.project.list"}),
}
ERAS = {"2026-07-28": "2026-07-28", "handshake": "legacy"}


def serve_command(db: Path, *options: str) -> list[str]:
    return [sys.executable, "-m", "opgate", "--db", str(db), "serve", *options]


def stdio_server(db: Path) -> StdioServerParameters:
    # The SDK's client passes the server only a few safe variables; keep this process's import path.
    command = serve_command(db)
    env = {"PYTHONPATH": os.environ["PYTHONPATH"]} if "PYTHONPATH" in os.environ else None
    return StdioServerParameters(command=command[0], args=command[1:], env=env)


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


async def client_rows(target, transport: str, calls: int) -> list[list[object]]:
    rows = []
    for era, mode in ERAS.items():
        async with Client(target, mode=mode) as client:
            for label, (tool, arguments) in CALLS.items():
                await client.call_tool(tool, arguments)
                times = []
                for _ in range(calls):
                    started = time.perf_counter()
                    await client.call_tool(tool, arguments)
                    times.append((time.perf_counter() - started) * 1000)
                rows.append([f"{transport}, {era}", label, f"{median(times):.2f}", f"{p95(times):.2f}"])
    return rows


async def startup_ms(db: Path) -> float:
    started = time.perf_counter()
    async with Client(stdio_server(db), mode="legacy") as client:
        await client.list_tools()
        return (time.perf_counter() - started) * 1000


def start_http(db: Path) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(serve_command(db, "--http", "127.0.0.1:0"), stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if match := re.search(r"listening on (http://\S+)", line):
            return process, match.group(1)
    raise RuntimeError("opgate serve --http did not start")


async def run(folder: Path, calls: int) -> None:
    db = folder / "bench.db"
    Gateway(db_path=db).store.close()  # the demo workspace, made once
    startups = [await startup_ms(db) for _ in range(3)]
    print_table("start-up over stdio: spawn to the first tools/list (ms, median of 3)", ["measure", "ms"], [["opgate serve", f"{median(startups):.0f}"]])
    rows = in_process_rows(db, calls)
    rows += await client_rows(stdio_server(db), "stdio", calls)
    process, url = start_http(db)
    try:
        await anyio.sleep(0.5)
        rows += await client_rows(url, "HTTP", calls)
    finally:
        process.terminate()
        process.wait(timeout=10)
    print_table(f"one tool call (ms, over {calls} calls)", ["path", "call", "median", "p95"], rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=200)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        anyio.run(run, Path(tmp), options.calls)


if __name__ == "__main__":
    main()
