"""tools/call over streamable HTTP: ``opgate serve --http`` against the SDK floor and FastMCP.

Run: python bench/bench_mcp_http.py [--calls 300]   (FastMCP: pip install -e '.[bench]')
Three servers, each in its own process on a loopback socket, driven by the
official SDK's client one call at a time, in the 2026-07-28 era and the
initialize-handshake era (bench/_mcp_compare.py interleaves them):

- opgate serve --http, calling ``exec onto.project.list``;
- the floor: the SDK's low-level ``Server`` with a tool that answers ``{}``
  at once (bench/_mcp_peers.py);
- FastMCP with a tool making the same opgate call on the same workspace.

Goal (issue 16): opgate within 1.5x of the floor, and no slower than FastMCP.
Before the listening socket named IPPROTO_TCP, Nagle's algorithm held each
small answer for the client's delayed ACK, and a call took ~50 ms here.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
from _mcp_compare import ERAS, HEADERS, compare, peer_command, rows, start_http  # noqa: E402
from _table import print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402

OURS, FLOOR, PEER = "opgate serve --http", "floor (SDK, no-op tool)", "FastMCP (same opgate call)"


async def run(folder: Path, calls: int) -> None:
    db = folder / "bench.db"
    Gateway(db_path=db).store.close()  # the demo workspace, made once, before three processes open it
    servers = {
        OURS: [sys.executable, "-m", "opgate", "--db", str(db), "serve", "--http", "127.0.0.1:0"],
        FLOOR: peer_command("floor", "http", db),
        PEER: peer_command("fastmcp", "http", db),
    }
    started = {name: start_http(command) for name, command in servers.items()}
    try:
        table = []
        for era, mode in ERAS.items():
            urls = {name: url for name, (_, url) in started.items()}
            measured = await compare(urls, mode, calls, pids={name: process.pid for name, (process, _) in started.items()})
            table += rows(era, measured, OURS, FLOOR, PEER)
    finally:
        for process, _ in started.values():
            process.terminate()
            process.wait(timeout=10)
    print_table(f"tools/call exec onto.project.list over streamable HTTP ({calls} calls each)", HEADERS, table)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=300)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        anyio.run(run, Path(tmp), options.calls)


if __name__ == "__main__":
    main()
