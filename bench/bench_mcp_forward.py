"""What forwarding a call to an upstream MCP server adds: ``Gateway.exec`` against the SDK's own client.

Run: python bench/bench_mcp_forward.py [--calls 300]
The same stdio server (the reference everything server, from
tests/upstreams/ensure_servers.sh) answers both: ``echo`` and ``get-sum``, one
call at a time. "direct" is the SDK's ClientSession awaited on its own loop;
"forwarded" is ``Gateway.exec`` from a thread, through resolve, validation,
the dispatcher, the upstream loop thread and the result conversion. The goal
is under 1 ms added at the median.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from mcp.client.session import ClientSession  # noqa: E402
from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.executors.mcp import Upstreams  # noqa: E402

REPO = Path(__file__).resolve().parents[1]
WARMUP = 50
CALLS = {
    "echo": ("everything.echo", "echo", {"message": "hello"}),
    "get-sum": ("everything.sum.get", "get-sum", {"a": 2, "b": 3}),
}


def server_command() -> list[str]:
    modules = subprocess.run(["bash", str(REPO / "tests" / "upstreams" / "ensure_servers.sh")], capture_output=True, text=True, check=True).stdout.strip()
    return ["node", str(Path(modules) / "@modelcontextprotocol" / "server-everything" / "dist" / "index.js"), "stdio"]


def direct(command: list[str], calls: int) -> dict[str, list[float]]:
    async def run() -> dict[str, list[float]]:
        times: dict[str, list[float]] = {}
        params = StdioServerParameters(command=command[0], args=command[1:])
        with open(os.devnull, "w") as quiet:
            async with stdio_client(params, errlog=quiet) as (read, write), ClientSession(read, write) as session:
                await session.initialize()
                await session.list_tools()
                for label, (_op, tool, args) in CALLS.items():
                    times[label] = await timed(session, tool, args, calls)
        return times

    return anyio.run(run)


async def timed(session: ClientSession, tool: str, args: dict, calls: int) -> list[float]:
    for _ in range(WARMUP):
        await session.call_tool(tool, args)
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        await session.call_tool(tool, args)
        times.append((time.perf_counter() - started) * 1000)
    return times


def forwarded(command: list[str], calls: int) -> dict[str, list[float]]:
    with tempfile.TemporaryDirectory() as folder:
        config = Path(folder) / "servers.json"
        config.write_text(json.dumps({"mcpServers": {"everything": {"command": command[0], "args": command[1:]}}}))
        gateway = Gateway(db_path=Path(folder) / "bench.db", upstreams=Upstreams.from_files([config]), call_log=False)
        try:
            times: dict[str, list[float]] = {}
            for label, (op, _tool, args) in CALLS.items():
                for _ in range(WARMUP):
                    assert gateway.exec(op, args)["ok"]
                times[label] = []
                for _ in range(calls):
                    started = time.perf_counter()
                    envelope = gateway.exec(op, args)
                    times[label].append((time.perf_counter() - started) * 1000)
                    assert envelope["ok"], envelope
            return times
        finally:
            gateway.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    options = parser.parse_args()
    command = server_command()
    plain, through = direct(command, options.calls), forwarded(command, options.calls)
    rows = []
    for label in CALLS:
        a, b = plain[label], through[label]
        rows.append([label, f"{median(a):.3f}", f"{p95(a):.3f}", f"{median(b):.3f}", f"{p95(b):.3f}", f"{median(b) - median(a):.3f}", f"{median(b) / median(a):.2f}"])
    print_table(
        f"A forwarded tools/call against the SDK client's own, {options.calls} calls each (ms)",
        ["tool", "direct median", "direct p95", "forwarded median", "forwarded p95", "added median", "ratio"],
        rows,
    )


if __name__ == "__main__":
    main()
