"""What sharing state through PostgreSQL costs two server processes: confirmations and the rate per caller.

Run: python bench/bench_team_confirm.py [--rounds 30] [--calls 200]

Starts a throwaway PostgreSQL cluster (as the tests do), makes an approver
token with ``opgate token create``, and serves the workspace from two
``opgate serve --http`` processes, A and B, spoken to by the SDK's client in
the 2026-07-28 protocol.

Part 1, a confirmation asked at A and answered at B (``onto.task.delete``
of a task made for each round). The peer is the same delete dry-run at B:
a redeem runs that dry-run again (the digest check) and then the delete, so
about twice the peer is the floor of this design.

Part 2, the rate per caller counted in the database: one read call
(``exec onto.project.list``) at a process with the shared rate on
(``--rate-limit 100000``) against one with the rate off (the peer), and the
store's ``spend_rate`` alone against the in-memory bucket it replaces.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from contextlib import asynccontextmanager
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))
sys.path.insert(0, str(HERE.parent / "tests" / "mcp"))

import anyio
import mcp_types as types
from _table import measure, median, p95, print_table
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_server_driver import HttpServer
from opgate.core.store import PostgresStore
from pg_cluster import PgCluster

from opgate.mcp_server._auth import RateLimits

PROJECT = "10000000-0000-4000-8000-000000000001"
YES = {"confirm": types.ElicitResult(action="accept", content={"confirm": True})}


async def _no_answer(context, params) -> types.ElicitResult:
    raise AssertionError("the bench answers by hand")


@asynccontextmanager
async def client(url: str, token: str):
    @asynccontextmanager
    async def transport():
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}"}) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                yield streams

    async with Client(transport(), mode="2026-07-28", elicitation_callback=_no_answer) as opened:
        yield opened


def payload(result) -> dict:
    return json.loads(result.content[0].text)


async def confirmations(a: str, b: str, token: str, rounds: int) -> list[list[object]]:
    asked, redeemed, peer = [], [], []
    async with client(a, token) as at_a, client(b, token) as at_b:
        for index in range(rounds + 2):
            made = payload(await at_a.call_tool("exec", {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": f"bench {index}"}}))
            delete = {"op": "onto.task.delete", "args": {"task_id": made["result"]["task"]["id"]}}
            started = time.perf_counter()
            await at_b.call_tool("exec", {**delete, "dry_run": True})
            dry = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            question = await at_a.session.call_tool("exec", delete, allow_input_required=True)
            ask = (time.perf_counter() - started) * 1000
            assert isinstance(question, types.InputRequiredResult), question
            started = time.perf_counter()
            done = await at_b.session.call_tool("exec", delete, input_responses=YES, request_state=question.request_state)
            redeem = (time.perf_counter() - started) * 1000
            assert payload(done)["ok"] is True, payload(done)
            if index >= 2:  # two rounds of warm-up
                asked.append(ask)
                redeemed.append(redeem)
                peer.append(dry)
    return [
        ["dry-run of the delete at B (peer)", f"{median(peer):.2f}", f"{p95(peer):.2f}", "1.00x"],
        ["question asked at A", f"{median(asked):.2f}", f"{p95(asked):.2f}", f"{median(asked) / median(peer):.2f}x"],
        ["answer redeemed at B (runs it)", f"{median(redeemed):.2f}", f"{p95(redeemed):.2f}", f"{median(redeemed) / median(peer):.2f}x"],
    ]


async def reads(off_url: str, on_url: str, token: str, calls: int) -> tuple[list[float], list[float]]:
    """Read calls alternating between the two processes, so that both see the same load on a shared machine."""
    times: tuple[list[float], list[float]] = ([], [])
    async with client(off_url, token) as off, client(on_url, token) as on:
        for index in range(calls + 20):
            for side, opened in enumerate((off, on)):
                started = time.perf_counter()
                await opened.call_tool("exec", {"op": "onto.project.list", "args": {"limit": 1}})
                if index >= 20:
                    times[side].append((time.perf_counter() - started) * 1000)
    return times


def make_token(url: str) -> str:
    done = subprocess.run([sys.executable, "-m", "opgate", "--db", url, "token", "create", "--name", "bench", "--role", "approver", "--json"],
                          capture_output=True, text=True, check=True, env=os.environ)
    return json.loads(done.stdout)["token"]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--calls", type=int, default=200)
    options = parser.parse_args()
    cluster = PgCluster()
    servers: list[HttpServer] = []
    try:
        url = cluster.new_database()
        token = make_token(url)
        a, b = (HttpServer(url, "--allow-write", "--rate-limit", "0").start() for _ in range(2))
        limited = HttpServer(url, "--rate-limit", "100000", "--rate-burst", "100000").start()
        servers = [a, b, limited]
        rows = anyio.run(confirmations, a.url, b.url, token, options.rounds)
        print_table(f"a confirmation asked at process A, answered at process B (ms, {options.rounds} rounds)", ["call", "median", "p95", "ratio"], rows)
        off, on = anyio.run(reads, a.url, limited.url, token, options.calls)
        with PostgresStore(url) as store:
            shared = measure(lambda: store.spend_rate("bench", 1e6, 1_000_000), repeat=options.calls * 5, warmup=20)
        local_limits = RateLimits(1e6, 1_000_000)
        local = measure(lambda: local_limits.wait_for("bench"), repeat=options.calls * 5, warmup=20)
        print_table(f"the rate per caller counted in PostgreSQL (ms; {options.calls} calls, {options.calls * 5} spends)", ["what", "median", "p95", "ratio"], [
            ["read call, rate off (peer)", f"{median(off):.2f}", f"{p95(off):.2f}", "1.00x"],
            ["read call, shared rate on", f"{median(on):.2f}", f"{p95(on):.2f}", f"{median(on) / median(off):.2f}x"],
            ["in-memory bucket, one spend (peer)", f"{median(local):.4f}", f"{p95(local):.4f}", "1.00x"],
            ["spend_rate in PostgreSQL, one spend", f"{median(shared):.4f}", f"{p95(shared):.4f}", f"{median(shared) / median(local):.0f}x"],
        ])
    finally:
        for server in servers:
            server.stop()
        cluster.stop()


if __name__ == "__main__":
    main()
