"""Timing one tools/call against several MCP servers fairly, on a machine other jobs share.

Every server gets one SDK client per protocol era, opened once. Calls are
made in rounds, one round per server in turn, so that a burst of load from
elsewhere falls on all of them alike rather than on whichever ran last.

Besides wall time per call, each server process's own CPU time per call is
read from /proc (user + system, from its start of measurement to its end):
on a loaded machine the wall time mostly says how long a process waited for
a core, while the CPU time says how much work the server did for the call.
"""

from __future__ import annotations

import os
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


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children() -> set[int]:
    """This process's child processes (the stdio servers the SDK's client spawns)."""
    found = set()
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as stat:
                    if int(stat.read().rsplit(")", 1)[1].split()[1]) == os.getpid():
                        found.add(int(entry))
            except (OSError, IndexError, ValueError):
                continue
    return found


class Measured:
    """One server's wall times per call (ms) and its CPU time per call (ms)."""

    def __init__(self) -> None:
        self.times: list[float] = []
        self.cpu_ms = 0.0


async def compare(targets: dict[str, Any], mode: str, calls: int, pids: dict[str, int] | None = None) -> dict[str, Measured]:
    """``CALL`` timed for each target (a URL or stdio parameters), in interleaved rounds.

    ``pids`` names each HTTP server's process; a stdio server is found as the
    child process its client spawned.
    """
    tool, arguments = CALL
    measured = {name: Measured() for name in targets}
    pids = dict(pids or {})
    async with AsyncExitStack() as stack:
        clients = {}
        for name, target in targets.items():
            before = children()
            clients[name] = await stack.enter_async_context(Client(target, mode=mode))
            if name not in pids:
                (pids[name],) = children() - before
        for client in clients.values():
            for _ in range(WARMUP):
                result = await client.call_tool(tool, arguments)
                if result.is_error:
                    raise RuntimeError(f"the benchmark call failed: {result.content}")
        while any(len(m.times) < calls for m in measured.values()):
            for name, client in clients.items():
                times = measured[name].times
                cpu_before = cpu_seconds(pids[name])
                for _ in range(min(ROUND, calls - len(times))):
                    started = time.perf_counter()
                    await client.call_tool(tool, arguments)
                    times.append((time.perf_counter() - started) * 1000)
                measured[name].cpu_ms += (cpu_seconds(pids[name]) - cpu_before) * 1000
    for m in measured.values():
        m.cpu_ms /= len(m.times)
    return measured


HEADERS = ["era", "server", "median ms", "p95 ms", "server CPU ms/call"]


def rows(era: str, measured: dict[str, Measured], ours: str, floor: str, peer: str) -> list[list[str]]:
    """One row per server, then opgate's ratio to the floor and to the peer (median, p95, CPU per call)."""
    out = [[era, name, f"{median(m.times):.2f}", f"{p95(m.times):.2f}", f"{m.cpu_ms:.2f}"] for name, m in measured.items()]
    for other in (floor, peer):
        if other in measured:
            a, b = measured[ours], measured[other]
            out.append([
                era, f"ratio opgate / {other.split(' ')[0]}", f"{median(a.times) / median(b.times):.2f}x",
                f"{p95(a.times) / p95(b.times):.2f}x", f"{a.cpu_ms / b.cpu_ms:.2f}x",
            ])
    return out
