"""tools/call over stdio spoken as raw JSON-RPC lines: the servers' own cost, without an SDK client's.

Run: python bench/bench_mcp_wire.py [--calls 2000] [--round 100]
bench_mcp.py drives the servers with the SDK's client, whose own work (and
its wait for a core on a busy machine) is most of each call's wall time.
Here one blocking client writes a ``tools/call exec onto.project.list``
line and reads the answer line, so what is measured is the server: wall
time per call, the server process's CPU time per call (all its threads,
from /proc) and its thread switches per call (voluntary and involuntary,
summed over its threads). Both protocol eras, against the SDK floor (the
low-level ``Server`` with a no-op tool, bench/_mcp_peers.py), interleaved
in rounds.
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

from _mcp_compare import cpu_seconds, peer_command  # noqa: E402
from _table import median, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402

ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
CALL = {"name": "exec", "arguments": {"op": "onto.project.list"}}


def thread_switches(pid: int) -> int:
    total = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as status:
                total += sum(int(line.split()[1]) for line in status if "ctxt_switches" in line)
        except OSError:  # a thread that ended meanwhile
            continue
    return total


class WireClient:
    """One server process spoken to line by line, in one era."""

    def __init__(self, command: list[str], era: str):
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.times: list[float] = []
        self.cpu = 0.0
        self.switches = 0
        self.next_id = 0
        params = dict(CALL)
        if era == "handshake":
            self._send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
            self.process.stdout.readline()
            self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        else:
            params["_meta"] = ENVELOPE
        self.params = params
        self.run(50, counted=False)

    def _send(self, message: dict) -> None:
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def run(self, calls: int, counted: bool = True) -> None:
        pid = self.process.pid
        cpu_before, switches_before = cpu_seconds(pid), thread_switches(pid)
        for _ in range(calls):
            self.next_id += 1
            line = json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": "tools/call", "params": self.params}).encode() + b"\n"
            started = time.perf_counter()
            self.process.stdin.write(line)
            self.process.stdin.flush()
            answer = self.process.stdout.readline()
            if counted:
                self.times.append((time.perf_counter() - started) * 1000)
        if b'"isError":false' not in answer:
            raise RuntimeError(f"the benchmark call failed: {answer[:300]!r}")
        if counted:
            self.cpu += cpu_seconds(pid) - cpu_before
            self.switches += thread_switches(pid) - switches_before

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=30)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--round", type=int, default=100)
    options = parser.parse_args()
    table = []
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.db"
        Gateway(db_path=db).store.close()
        for era in ("2026-07-28", "handshake"):
            servers = {
                "opgate serve": WireClient([sys.executable, "-m", "opgate", "--db", str(db), "serve"], era),
                "floor (SDK, no-op tool)": WireClient(peer_command("floor", "stdio", db), era),
            }
            while any(len(s.times) < options.calls for s in servers.values()):
                for server in servers.values():
                    server.run(min(options.round, options.calls - len(server.times)))
            for server in servers.values():
                server.close()
            figures = {name: (median(s.times), s.cpu * 1000 / len(s.times), s.switches / len(s.times)) for name, s in servers.items()}
            for name, (wall, cpu, switches) in figures.items():
                table.append([era, name, f"{wall:.3f}", f"{cpu:.3f}", f"{switches:.1f}"])
            ours, floor = figures["opgate serve"], figures["floor (SDK, no-op tool)"]
            table.append([era, "ratio opgate / floor", f"{ours[0] / floor[0]:.2f}x", f"{ours[1] / floor[1]:.2f}x", f"{ours[2] / floor[2]:.2f}x"])
    print_table(f"tools/call over stdio, raw JSON-RPC client ({options.calls} calls each; load {os.getloadavg()[0]:.1f})",
                ["era", "server", "median ms", "server CPU ms/call", "thread switches/call"], table)


if __name__ == "__main__":
    main()
