"""Confirmations nobody answers hold up nobody else.

45 clients each leave a confirmation unanswered on one HTTP server (the
timeout is long, as in real use). Another client's reads answer meanwhile, as
fast as they do on an idle server (the figures are printed; bench/bench_sessions.py
measures them properly). Waiting is bounded per session and in all: past the
bound, a call that needs confirmation is refused at once, saying why, and
nothing is written.
"""

from __future__ import annotations

import time

import anyio
import mcp_types as types
import pytest

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, HttpServer, connect

pytestmark = pytest.mark.anyio

CLIENTS = 45
WAITING_IN_ALL = 32  # opgate.mcp_server._clients.MAX_WAITING
WAITING_PER_SESSION = 2  # opgate.mcp_server._clients.WAITING_PER_CLIENT
KEPT_TASK = "20000000-0000-4000-8000-000000000006"
READ = {"op": "onto.task.list", "args": {"project_id": "10000000-0000-4000-8000-000000000001", "limit": 5}}


@pytest.fixture
def server(tmp_path):
    server = HttpServer(tmp_path / "workspace.db", "--allow-write", "--confirm-timeout", "300").start()
    yield server
    server.stop()


def never_answering(asked: list[str]):
    async def callback(context, params) -> types.ElicitResult:
        asked.append(params.message)
        await anyio.sleep_forever()
        raise AssertionError("unreachable")

    return callback


async def read_latencies(client, count: int = 5) -> list[float]:
    latencies = []
    for _ in range(count):
        started = time.perf_counter()
        envelope = answer(await client.call_tool("exec", READ))
        latencies.append(time.perf_counter() - started)
        assert envelope["ok"] is True
    return latencies


async def test_unanswered_confirmations_do_not_delay_other_sessions(server):
    asked: list[str] = []
    refused: list[dict] = []
    with anyio.fail_after(CALL_TIMEOUT * 4):
        async with connect(server.url, "legacy") as reader:
            idle = await read_latencies(reader)
            async with anyio.create_task_group() as waiting:

                async def leave_unanswered() -> None:
                    async with connect(server.url, "legacy", elicitation_callback=never_answering(asked)) as client:
                        result = await client.call_tool("exec", {"op": "onto.task.delete", "args": {"task_id": KEPT_TASK}})
                        refused.append(answer(result))  # only calls over the bound come back

                for _ in range(CLIENTS):
                    waiting.start_soon(leave_unanswered)
                with anyio.fail_after(CALL_TIMEOUT):
                    while len(asked) + len(refused) < CLIENTS:
                        await anyio.sleep(0.05)
                loaded = await read_latencies(reader)
                still = answer(await reader.call_tool("exec", {"op": "onto.task.get", "args": {"task_id": KEPT_TASK}}))
                waiting.cancel_scope.cancel()
    print(f"\nread latency, idle server: max {max(idle) * 1000:.1f} ms; with {len(asked)} confirmations waiting: max {max(loaded) * 1000:.1f} ms")
    assert len(asked) == WAITING_IN_ALL and len(refused) == CLIENTS - WAITING_IN_ALL
    for envelope in refused:
        assert envelope["error"]["code"] == "PERMISSION_DENIED" and "already has 32 waiting" in envelope["error"]["message"]
    assert still["ok"] is True, "nothing was deleted while the confirmations waited"
    # Before sessions, the 41st waiting call took the last worker slot and every read waited for the 600 s timeout.
    assert max(loaded) < 5.0


async def test_one_session_may_leave_only_a_few_confirmations_waiting(server):
    asked: list[str] = []
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(server.url, "legacy", elicitation_callback=never_answering(asked)) as client:
            answers: list[dict] = []
            async with anyio.create_task_group() as calls:

                async def delete() -> None:
                    answers.append(answer(await client.call_tool("exec", {"op": "onto.task.delete", "args": {"task_id": KEPT_TASK}})))

                for _ in range(WAITING_PER_SESSION + 1):
                    calls.start_soon(delete)
                with anyio.fail_after(CALL_TIMEOUT):
                    while not answers:
                        await anyio.sleep(0.05)
                calls.cancel_scope.cancel()
    assert len(asked) == WAITING_PER_SESSION
    assert answers[0]["error"]["code"] == "PERMISSION_DENIED" and "this session already has 2 waiting" in answers[0]["error"]["message"]
