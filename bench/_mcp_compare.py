"""Timing one tools/call against several MCP servers fairly, on a machine other jobs share.

Every server gets one SDK client per protocol era, opened once. Calls are
made in rounds, one round per server in turn, so that a burst of load from
elsewhere falls on all of them alike rather than on whichever ran last.
"""

from __future__ import annotations

import re
import subprocess
import sys
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from _table import median, p95
from mcp import Client

ERAS = {"2026-07-28": "2026-07-28", "handshake": "legacy"}
CALL = ("exec", {"op": "onto.project.list"})
PEERS = Path(__file__).with_name("_mcp_peers.py")
WARMUP = 20
ROUND = 25


def start_http(command: list[str]) -> tuple[subprocess.Popen, str]:
    """A server process and the URL it printed on standard error."""
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if match := re.search(r"listening on (http://\S+)", line):
            return process, match.group(1)
    raise RuntimeError(f"{command} did not start")


def peer_command(kind: str, transport: str, db: Path) -> list[str]:
    return [sys.executable, str(PEERS), kind, transport, str(db)]


async def compare(targets: dict[str, Any], mode: str, calls: int) -> dict[str, list[float]]:
    """Milliseconds per ``CALL`` for each target (a URL or stdio parameters), in interleaved rounds."""
    tool, arguments = CALL
    times: dict[str, list[float]] = {name: [] for name in targets}
    async with AsyncExitStack() as stack:
        clients = {name: await stack.enter_async_context(Client(target, mode=mode)) for name, target in targets.items()}
        for client in clients.values():
            for _ in range(WARMUP):
                result = await client.call_tool(tool, arguments)
                if result.is_error:
                    raise RuntimeError(f"the benchmark call failed: {result.content}")
        while any(len(t) < calls for t in times.values()):
            for name, client in clients.items():
                for _ in range(min(ROUND, calls - len(times[name]))):
                    started = time.perf_counter()
                    await client.call_tool(tool, arguments)
                    times[name].append((time.perf_counter() - started) * 1000)
    return times


def rows(era: str, measured: dict[str, list[float]], ours: str, floor: str, peer: str) -> list[list[str]]:
    """One row per server, then opgate's ratio to the floor and to the peer (median, p95)."""
    out = [[era, name, f"{median(t):.2f}", f"{p95(t):.2f}"] for name, t in measured.items()]
    for other in (floor, peer):
        if other in measured:
            a, b = measured[ours], measured[other]
            out.append([era, f"ratio opgate / {other.split(' ')[0]}", f"{median(a) / median(b):.2f}x", f"{p95(a) / p95(b):.2f}x"])
    return out
