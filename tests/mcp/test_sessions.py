"""Two clients at once on one HTTP server: neither sees the other's current project, loop guard or idempotency keys.

Handshake-era clients are told apart by the ``Mcp-Session-Id`` the transport
issues. 2026-07-28 clients have no transport session: each request is its
own session unless the client names one with the ``Opgate-Session`` header.
"""

from __future__ import annotations

from contextlib import asynccontextmanager
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, HttpServer, connect

pytestmark = pytest.mark.anyio

NOVEL = "10000000-0000-4000-8000-000000000002"  # the demo's second project, "Tidewater: A Novel"
TASK_LIST = {"op": "onto.task.list", "args": {"project_id": NOVEL, "limit": 2}}


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    server = HttpServer(tmp_path_factory.mktemp("sessions") / "workspace.db", "--allow-write").start()
    yield server
    server.stop()


@asynccontextmanager
async def named(url: str, session: str):
    """A 2026-07-28 client that names its session with the Opgate-Session header."""
    async with httpx2.AsyncClient(headers={"Opgate-Session": session}) as http:
        async with Client(streamable_http_client(url, http_client=http), mode="2026-07-28", read_timeout_seconds=CALL_TIMEOUT) as client:
            yield client


async def exec_(client: Client, op: str, args: dict[str, Any], **options: Any) -> dict[str, Any]:
    return answer(await client.call_tool("exec", {"op": op, "args": args, **options}))


async def reads_the_novel(client: Client) -> None:
    assert (await exec_(client, "onto.project.get", {"project_id": NOVEL}))["ok"]


async def test_the_current_project_stays_with_its_session(server):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(server.url, "legacy") as a, connect(server.url, "legacy") as b:
            await reads_the_novel(a)
            theirs = await exec_(b, "onto.task.create", {"title": "Written by B without a project"})
            assert theirs["ok"] is False and theirs["error"]["code"] == "VALIDATION_ERROR"
            assert "project_id" in str(theirs["error"]["details"]["field_errors"])
            mine = await exec_(a, "onto.task.create", {"title": "Written by A in its current project"})
            assert mine["ok"] is True and mine["result"]["task"]["project_id"] == NOVEL
            assert any("current project_id" in w for w in mine["meta"]["warnings"])


async def test_the_loop_guard_counts_each_session_alone(server):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(server.url, "legacy") as a, connect(server.url, "legacy") as b:
            for _ in range(2):
                assert not (await exec_(a, **TASK_LIST))["meta"]["warnings"]
            # Shared, this would be the third identical read in a row.
            assert not (await exec_(b, **TASK_LIST))["meta"]["warnings"]
            third = await exec_(a, **TASK_LIST)
            assert any("3 times in a row" in w for w in third["meta"]["warnings"])


async def test_idempotency_keys_are_scoped_to_their_session(server):
    key = {"idempotency_key": "the-same-key-in-two-sessions"}
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(server.url, "legacy") as a, connect(server.url, "legacy") as b:
            first = await exec_(a, "onto.task.create", {"project_id": NOVEL, "title": "A's keyed task"}, **key)
            other = await exec_(b, "onto.task.create", {"project_id": NOVEL, "title": "B's keyed task"}, **key)
            again = await exec_(a, "onto.task.create", {"project_id": NOVEL, "title": "A's keyed task"}, **key)
    assert first["ok"] and other["ok"] and again["ok"], (first, other, again)
    assert other["result"]["task"]["id"] != first["result"]["task"]["id"] and not other["meta"].get("idempotent_replay")
    assert again["result"]["task"]["id"] == first["result"]["task"]["id"] and again["meta"]["idempotent_replay"] is True


async def test_2026_clients_without_a_session_remember_nothing_of_each_other(server):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(server.url, "2026-07-28") as a, connect(server.url, "2026-07-28") as b:
            await reads_the_novel(a)
            for client in (a, b):
                unfilled = await exec_(client, "onto.task.create", {"title": "No project remembered"})
                assert unfilled["ok"] is False and unfilled["error"]["code"] == "VALIDATION_ERROR"


async def test_2026_clients_that_name_a_session_keep_it_to_themselves(server):
    with anyio.fail_after(CALL_TIMEOUT):
        async with named(server.url, "client-a") as a, named(server.url, "client-b") as b:
            await reads_the_novel(a)
            mine = await exec_(a, "onto.task.create", {"title": "Filed in A's named session"})
            assert mine["ok"] is True and mine["result"]["task"]["project_id"] == NOVEL
            theirs = await exec_(b, "onto.task.create", {"title": "B named another session"})
            assert theirs["ok"] is False and theirs["error"]["code"] == "VALIDATION_ERROR"
