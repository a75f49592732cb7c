"""What each ``opgate serve --mode`` lists, and whether waiting confirmations slow other sessions.

Run: python bench/bench_sessions.py [--calls 100] [--waiting 45]

Part 1, the tools/list each mode sends (built-in catalogue, compact JSON of
the MCP tools): the peer is full mode, one typed tool per op. Hybrid is shown
with an empty lane and after the move flow's two ops were inspected.

Part 2, one client's reads (exec onto.task.list, one at a time, over
streamable HTTP with the handshake) on an idle server, then while
``--waiting`` other clients each leave a confirmation unanswered. The peer is
the idle server, measured in the same run; the ratio is loaded / idle. Before
per-session limits, 40 waiting confirmations took every worker slot and the
reads waited for the confirmation timeout (600 s).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
import mcp_types as types  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from mcp import Client  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.exec import Session  # noqa: E402
from opgate.core.modes import ROUTER_MODES, ToolRouter  # noqa: E402
from opgate.mcp_server import listed_tools  # noqa: E402

READ = ("exec", {"op": "onto.task.list", "args": {"project_id": "10000000-0000-4000-8000-000000000001", "limit": 5}})
CONFIRMED = ("exec", {"op": "onto.task.delete", "args": {"task_id": "20000000-0000-4000-8000-000000000006"}})


def listing_bytes(router: ToolRouter) -> tuple[int, int]:
    tools = listed_tools(router.tools())
    text = json.dumps([t.model_dump(by_alias=True, exclude_none=True) for t in tools], separators=(",", ":"), ensure_ascii=False)
    return len(tools), len(text.encode())


def listings(folder: Path) -> None:
    gateway = Gateway(db_path=folder / "modes.db")
    try:
        full = listing_bytes(ToolRouter(gateway, mode="full"))[1]
        rows = []
        for mode in ROUTER_MODES:
            count, size = listing_bytes(ToolRouter(gateway, mode=mode, session=Session()))
            rows.append([mode, count, f"{size:,}", f"{size / full:.3f}"])
        inspected = ToolRouter(gateway, mode="hybrid", session=Session())
        inspected.call("list_tools", {"category": "onto.document.tree", "detail": "schema", "limit": 2})
        count, size = listing_bytes(inspected)
        rows.append(["hybrid, 2 ops inspected", count, f"{size:,}", f"{size / full:.3f}"])
    finally:
        gateway.close()
    print_table("tools/list per mode (built-in catalogue; bytes of compact JSON; ratio = mode / full)", ["mode", "tools", "bytes", "ratio"], rows)


def start(command: list[str]) -> tuple[subprocess.Popen, str]:
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if match := re.search(r"listening on (http://\S+)", line):
            return process, match.group(1)
    raise RuntimeError(f"{command} did not start")


async def read_times(client: Client, calls: int) -> list[float]:
    times = []
    for _ in range(calls):
        started = time.perf_counter()
        await client.call_tool(*READ)
        times.append((time.perf_counter() - started) * 1000)
    return times


async def never_answer(context, params) -> types.ElicitResult:
    await anyio.sleep_forever()
    raise AssertionError("unreachable")


async def under_load(url: str, calls: int, waiting: int) -> list[list[object]]:
    asked = 0

    async def counting(context, params) -> types.ElicitResult:
        nonlocal asked
        asked += 1
        return await never_answer(context, params)

    async with Client(url, mode="legacy") as reader:
        await read_times(reader, 20)  # warm-up
        idle = await read_times(reader, calls)
        async with anyio.create_task_group() as group:
            answered = 0

            async def leave_unanswered() -> None:
                nonlocal answered
                async with Client(url, mode="legacy", elicitation_callback=counting) as client:
                    await client.call_tool(*CONFIRMED)
                    answered += 1  # refused at once: over the bound

            for _ in range(waiting):
                group.start_soon(leave_unanswered)
            with anyio.fail_after(60):
                while asked + answered < waiting:
                    await anyio.sleep(0.05)
            loaded = await read_times(reader, calls)
            group.cancel_scope.cancel()
    return [
        ["idle server (peer)", f"{median(idle):.2f}", f"{p95(idle):.2f}", f"{max(idle):.2f}"],
        [f"{asked} waiting, {answered} refused", f"{median(loaded):.2f}", f"{p95(loaded):.2f}", f"{max(loaded):.2f}"],
        ["ratio loaded / idle", f"{median(loaded) / median(idle):.2f}x", f"{p95(loaded) / p95(idle):.2f}x", ""],
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--waiting", type=int, default=45)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        listings(folder)
        command = [sys.executable, "-m", "opgate", "--db", str(folder / "bench.db"), "serve", "--http", "127.0.0.1:0", "--allow-write", "--confirm-timeout", "600"]
        process, url = start(command)
        try:
            rows = anyio.run(under_load, url, options.calls, options.waiting)
        finally:
            process.terminate()
            process.wait(timeout=10)
    print_table(f"one client's reads while others leave confirmations unanswered (ms, {options.calls} reads each)", ["server state", "median", "p95", "max"], rows)


if __name__ == "__main__":
    main()
