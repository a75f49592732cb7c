"""tools/call over streamable HTTP: ``opgate serve --http`` against a do-nothing SDK server.

Run: python bench/bench_mcp_http.py [--calls 300]
The floor is the official ``mcp`` SDK's low-level ``Server`` with one tool
that answers at once, served by uvicorn the same way (its own process, a
loopback socket). Both are driven by the SDK's client, one call at a time, in
the 2026-07-28 era and the initialize-handshake era. What is left between the
two is opgate's own work (a worker thread, validation, the SQLite read, the
envelope, the call log), not the transport.

Before the listening socket named IPPROTO_TCP, Nagle's algorithm held each
small answer for the client's delayed ACK, and a call took ~50 ms here.
"""

from __future__ import annotations

import argparse
import re
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from mcp import Client  # noqa: E402

ERAS = {"2026-07-28": "2026-07-28", "handshake": "legacy"}
CALL = ("exec", {"op": "onto.project.list"})


def serve_floor() -> None:
    """The floor server: one tool that does nothing, on a port printed like opgate's."""
    import mcp_types as types
    import uvicorn
    from mcp.server import Server

    async def list_tools(ctx, params):
        return types.ListToolsResult(tools=[types.Tool(name="exec", input_schema={"type": "object"})])

    async def call_tool(ctx, params):
        return types.CallToolResult(content=[types.TextContent(type="text", text="{}")])

    server = Server("floor", on_list_tools=list_tools, on_call_tool=call_tool)
    app = server.streamable_http_app(streamable_http_path="/mcp")
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    print(f"floor listening on http://127.0.0.1:{sock.getsockname()[1]}/mcp", file=sys.stderr, flush=True)
    uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False)).run(sockets=[sock])


def start(command: list[str]) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if match := re.search(r"listening on (http://\S+)", line):
            return process, match.group(1)
    raise RuntimeError(f"{command} did not start")


async def call_times(url: str, mode: str, calls: int) -> list[float]:
    tool, arguments = CALL
    async with Client(url, mode=mode) as client:
        for _ in range(20):
            await client.call_tool(tool, arguments)
        times = []
        for _ in range(calls):
            started = time.perf_counter()
            await client.call_tool(tool, arguments)
            times.append((time.perf_counter() - started) * 1000)
        return times


async def run(folder: Path, calls: int) -> None:
    db = folder / "bench.db"
    servers = {
        "opgate serve --http": [sys.executable, "-m", "opgate", "--db", str(db), "serve", "--http", "127.0.0.1:0"],
        "floor (SDK, no-op tool)": [sys.executable, __file__, "--serve-floor"],
    }
    started = {name: start(command) for name, command in servers.items()}
    try:
        rows = []
        for era, mode in ERAS.items():
            measured = {name: await call_times(url, mode, calls) for name, (_, url) in started.items()}
            opgate, floor = measured["opgate serve --http"], measured["floor (SDK, no-op tool)"]
            for name, times in measured.items():
                rows.append([era, name, f"{median(times):.2f}", f"{p95(times):.2f}"])
            rows.append([era, "ratio opgate / floor", f"{median(opgate) / median(floor):.2f}x", f"{p95(opgate) / p95(floor):.2f}x"])
    finally:
        for process, _ in started.values():
            process.terminate()
            process.wait(timeout=10)
    print_table(f"tools/call exec onto.project.list over streamable HTTP (ms, {calls} calls)", ["era", "server", "median", "p95"], rows)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    parser.add_argument("--serve-floor", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args()
    if options.serve_floor:
        serve_floor()
        return
    with tempfile.TemporaryDirectory() as tmp:
        anyio.run(run, Path(tmp), options.calls)


if __name__ == "__main__":
    main()
