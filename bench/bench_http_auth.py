"""What bearer-token authentication adds to a tools/call over streamable HTTP.

Run: python bench/bench_http_auth.py [--calls 300]
Two ``opgate serve --http`` processes on copies of one workspace: one without
tokens (the floor: the same server, the same op, the same transport), one
with a writer token, which every request presents and the server checks
(a SHA-256 and an indexed read of the token table, the caller named for the
call log, the rate bucket). The SDK's client drives both, one call at a time,
alternating, so both see the same machine load.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import anyio  # noqa: E402
from _table import median, p95, print_table  # noqa: E402
from mcp import Client  # noqa: E402
from mcp.client.streamable_http import streamable_http_client  # noqa: E402
from mcp.shared._httpx_utils import create_mcp_http_client  # noqa: E402

CALL = ("exec", {"op": "onto.project.list"})


def opgate(db: Path, *words: str) -> str:
    return subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), *words], capture_output=True, text=True, check=True).stdout


def start(db: Path) -> tuple[subprocess.Popen, str]:
    command = [sys.executable, "-m", "opgate", "--db", str(db), "serve", "--http", "127.0.0.1:0", "--rate-limit", "0"]
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    for line in process.stderr:
        if match := re.search(r"listening on (http://\S+)", line):
            return process, match.group(1)
    raise RuntimeError(f"{command} did not start")


async def timed_calls(plain_url: str, auth_url: str, token: str, calls: int) -> tuple[list[float], list[float]]:
    tool, arguments = CALL
    async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
        async with Client(plain_url, mode="2026-07-28") as plain, Client(streamable_http_client(auth_url, http_client=http), mode="2026-07-28") as authed:
            for _ in range(20):
                await plain.call_tool(tool, arguments)
                await authed.call_tool(tool, arguments)
            times: tuple[list[float], list[float]] = ([], [])
            for _ in range(calls):
                for client, kept in ((plain, times[0]), (authed, times[1])):
                    started = time.perf_counter()
                    result = await client.call_tool(tool, arguments)
                    kept.append((time.perf_counter() - started) * 1000)
                    assert result.is_error is False
            return times


def run(folder: Path, calls: int) -> None:
    plain_db, auth_db = folder / "plain.db", folder / "auth.db"
    opgate(plain_db, "exec", "onto.project.list")  # makes the demo workspace
    shutil.copy(plain_db, auth_db)
    token = json.loads(opgate(auth_db, "token", "create", "--name", "bench", "--role", "writer", "--json"))["token"]
    servers = [start(plain_db), start(auth_db)]
    try:
        plain, authed = anyio.run(timed_calls, servers[0][1], servers[1][1], token, calls)
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=10)
    rows = [
        ["no tokens (floor)", f"{median(plain):.2f}", f"{p95(plain):.2f}"],
        ["bearer token", f"{median(authed):.2f}", f"{p95(authed):.2f}"],
        ["ratio token / floor", f"{median(authed) / median(plain):.2f}x", f"{p95(authed) / p95(plain):.2f}x"],
    ]
    print_table(f"tools/call exec onto.project.list over streamable HTTP, 2026-07-28 (ms, {calls} calls each)", ["server", "median", "p95"], rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=300)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run(Path(tmp), options.calls)


if __name__ == "__main__":
    main()
