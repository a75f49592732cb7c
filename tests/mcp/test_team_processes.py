"""Two ``opgate serve --http`` processes on one PostgreSQL database behave as one service.

Real subprocesses on a throwaway cluster (tests/pg_cluster.py; the tests
fail, never skip, when it cannot start), tokens made with the real
``opgate token`` command, and the SDK's client in the 2026-07-28 protocol,
where every request stands alone and a load balancer may send each to
either process.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from contextlib import asynccontextmanager

import anyio
import httpx
import mcp_types as types
import psycopg
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, DEMO_PROJECT, HttpServer, answering
from team_driver import connect_as, make_token

pytestmark = pytest.mark.anyio

YES = {"confirm": types.ElicitResult(action="accept", content={"confirm": True})}
NO = {"confirm": types.ElicitResult(action="decline")}
CONCURRENT = 12
INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "team-test", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def team(pg_cluster):
    """Processes A and B on one new database (the demo is loaded on first open), and a token per role."""
    url = pg_cluster.new_database()
    tokens = {name: make_token(url, name, role) for name, role in (("writer", "writer"), ("approver", "approver"), ("other-approver", "approver"))}
    servers = [HttpServer(url, "--allow-write", "--rate-limit", "0").start() for _ in range(2)]
    yield url, servers, tokens
    for server in servers:
        server.stop()
    pg_cluster.give_back(url)


def asking(url: str, token: str):
    """A client that says it can show a confirmation form (the answers are sent by hand)."""
    return connect_as(url, token, elicitation_callback=answering(confirm=True))


def count(url: str, kind: str, **where) -> int:
    from opgate.core.store import PostgresStore

    with PostgresStore(url) as store, store.read() as tx:
        return tx.list(kind, where).total


def exists(url: str, kind: str, entity_id: str) -> bool:
    from opgate.core.store import NotFound, PostgresStore

    with PostgresStore(url) as store, store.read() as tx:
        try:
            tx.get(kind, entity_id)
        except NotFound:
            return False
        return True


def create_task(title: str, **extra) -> dict:
    return {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": title}, **extra}


async def settled(client, call: dict) -> dict:
    """The answer to an exec, sent again with the same key while it says retryable (it waited too long for the write lock)."""
    for _ in range(5):
        envelope = answer(await client.call_tool("exec", call))
        if envelope["ok"] or not envelope["error"]["details"].get("retryable"):
            return envelope
    return envelope


async def test_one_idempotency_key_sent_to_both_processes_writes_once(team):
    url, (a, b), tokens = team
    call = create_task("once across processes", idempotency_key="two-processes-1")
    answers: list[dict] = []
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect_as(a.url, tokens["writer"]) as to_a, connect_as(b.url, tokens["writer"]) as to_b:
            async with anyio.create_task_group() as calls:
                for index in range(CONCURRENT):
                    client = to_a if index % 2 else to_b

                    async def send(client=client) -> None:
                        answers.append(await settled(client, call))

                    calls.start_soon(send)
            other = answer(await to_b.call_tool("exec", create_task("other arguments, same key", idempotency_key="two-processes-1")))
    assert all(envelope["ok"] for envelope in answers), [e for e in answers if not e["ok"]]
    assert len({envelope["result"]["task"]["id"] for envelope in answers}) == 1
    assert sum(1 for envelope in answers if not envelope["meta"].get("idempotent_replay")) == 1
    assert count(url, "task", title="once across processes") == 1
    assert other["ok"] is False and other["error"]["code"] == "CONFLICT"
    assert count(url, "task", title="other arguments, same key") == 0


async def test_concurrent_writes_to_both_processes_are_all_kept_once(team):
    url, (a, b), tokens = team
    titles = [f"counted write {index}" for index in range(CONCURRENT * 2)]
    answers: list[dict] = []
    with anyio.fail_after(CALL_TIMEOUT * 3):
        async with connect_as(a.url, tokens["writer"]) as to_a, connect_as(b.url, tokens["writer"]) as to_b:
            async with anyio.create_task_group() as calls:
                for index, title in enumerate(titles):

                    async def send(client=(to_a, to_b)[index % 2], title=title) -> None:
                        answers.append(await settled(client, create_task(title, idempotency_key=f"counted-{title}")))

                    calls.start_soon(send)
    assert [e for e in answers if not e["ok"]] == []
    for title in titles:
        assert count(url, "task", title=title) == 1, title


async def test_a_confirmation_asked_at_one_process_is_answered_at_the_other(team):
    url, (a, b), tokens = team
    task = "20000000-0000-4000-8000-000000000011"
    asked = {"op": "onto.task.delete", "args": {"task_id": task}}
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with asking(a.url, tokens["approver"]) as to_a, asking(b.url, tokens["approver"]) as to_b, \
                asking(b.url, tokens["other-approver"]) as stranger:
            question = await to_a.session.call_tool("exec", asked, allow_input_required=True)
            assert isinstance(question, types.InputRequiredResult) and question.request_state
            assert "onto.task.delete" in question.input_requests["confirm"].params.message
            assert exists(url, "task", task), "asking wrote nothing"
            stolen = await stranger.session.call_tool("exec", asked, input_responses=YES, request_state=question.request_state)
            assert stolen.is_error is True and "no call is waiting" in answer(stolen)["error"]["message"]
            started = time.perf_counter()
            done = await to_b.session.call_tool("exec", asked, input_responses=YES, request_state=question.request_state)
            redeemed_ms = (time.perf_counter() - started) * 1000
            assert done.is_error is False, answer(done)
            assert answer(done)["ok"] is True
            again = await to_a.session.call_tool("exec", asked, input_responses=YES, request_state=question.request_state)
            assert again.is_error is True and "no call is waiting" in answer(again)["error"]["message"]
    print(f"\nconfirmation asked at A, redeemed at B in {redeemed_ms:.1f} ms")
    assert not exists(url, "task", task)


async def test_a_declined_confirmation_at_the_other_process_writes_nothing(team):
    url, (a, b), tokens = team
    task = "20000000-0000-4000-8000-000000000012"
    asked = {"op": "onto.task.delete", "args": {"task_id": task}}
    with anyio.fail_after(CALL_TIMEOUT):
        async with asking(a.url, tokens["approver"]) as to_a, asking(b.url, tokens["approver"]) as to_b:
            question = await to_a.session.call_tool("exec", asked, allow_input_required=True)
            declined = await to_b.session.call_tool("exec", asked, input_responses=NO, request_state=question.request_state)
    assert answer(declined)["error"]["code"] == "PERMISSION_DENIED" and "did not confirm" in answer(declined)["error"]["message"]
    assert exists(url, "task", task)


async def test_a_change_since_the_person_saw_the_diff_is_a_conflict(team):
    url, (a, b), tokens = team
    task = "20000000-0000-4000-8000-000000000013"
    asked = {"op": "onto.task.delete", "args": {"task_id": task}}
    with anyio.fail_after(CALL_TIMEOUT):
        async with asking(a.url, tokens["approver"]) as to_a, asking(b.url, tokens["approver"]) as to_b:
            question = await to_a.session.call_tool("exec", asked, allow_input_required=True)
            changed = answer(await to_b.call_tool("exec", {"op": "onto.task.update", "args": {"task_id": task, "title": "renamed meanwhile"}}))
            assert changed["ok"] is True
            late = await to_b.session.call_tool("exec", asked, input_responses=YES, request_state=question.request_state)
    assert answer(late)["error"]["code"] == "CONFLICT", answer(late)
    assert exists(url, "task", task)


async def test_the_bound_on_waiting_confirmations_holds_across_processes(team):
    url, (a, b), _ = team
    token = make_token(url, "busy-approver", "approver")
    bound = 16  # opgate.mcp_server._input_required.PENDING_PER_CALLER
    asked = {"op": "onto.task.delete", "args": {"task_id": "20000000-0000-4000-8000-000000000016"}}
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with asking(a.url, token) as to_a, asking(b.url, token) as to_b:
            for index in range(bound):
                question = await (to_a, to_b)[index % 2].session.call_tool("exec", asked, allow_input_required=True)
                assert isinstance(question, types.InputRequiredResult), index
            over = await to_b.session.call_tool("exec", asked, allow_input_required=True)
    assert isinstance(over, types.CallToolResult) and over.is_error is True
    assert f"this caller already has {bound} waiting" in answer(over)["error"]["message"]
    assert exists(url, "task", "20000000-0000-4000-8000-000000000016")


async def test_a_batch_that_asks_midway_finishes_at_the_other_process_without_running_a_step_twice(team):
    url, (a, b), tokens = team
    task = "20000000-0000-4000-8000-000000000014"
    batch = {"steps": [
        {"tool": "exec", "args": create_task("batch step before the question")},
        {"tool": "exec", "args": {"op": "onto.task.delete", "args": {"task_id": task}}},
        {"tool": "exec", "args": create_task("batch step after the question")},
    ]}
    with anyio.fail_after(CALL_TIMEOUT):
        async with asking(a.url, tokens["approver"]) as to_a, asking(b.url, tokens["approver"]) as to_b:
            question = await to_a.session.call_tool("batch", batch, allow_input_required=True)
            assert isinstance(question, types.InputRequiredResult)
            assert count(url, "task", title="batch step before the question") == 1
            assert count(url, "task", title="batch step after the question") == 0, "the steps after the question wait for it"
            done = answer(await to_b.session.call_tool("batch", batch, input_responses=YES, request_state=question.request_state))
    steps = done["results"]
    assert [step["ok"] for step in steps] == [True, True, True], steps
    assert count(url, "task", title="batch step before the question") == 1, "the step before the question ran once"
    assert count(url, "task", title="batch step after the question") == 1
    assert not exists(url, "task", task)


@asynccontextmanager
async def in_named_session(url: str, token: str, name: str):
    """A 2026-07-28 client that names its session with ``Opgate-Session``, as one behind a load balancer would."""

    @asynccontextmanager
    async def transport():
        async with create_mcp_http_client(headers={"Authorization": f"Bearer {token}", "Opgate-Session": name}) as http:
            async with streamable_http_client(url, http_client=http) as streams:
                yield streams

    async with Client(transport(), mode="2026-07-28", read_timeout_seconds=CALL_TIMEOUT) as client:
        yield client


async def test_a_named_session_remembers_its_project_in_every_process(team):
    _url, (a, b), tokens = team
    other_project = "10000000-0000-4000-8000-000000000002"
    with anyio.fail_after(CALL_TIMEOUT):
        async with in_named_session(a.url, tokens["writer"], "qa-run-7") as at_a, in_named_session(b.url, tokens["writer"], "qa-run-7") as at_b, \
                in_named_session(b.url, tokens["writer"], "qa-run-8") as elsewhere:
            listed = answer(await at_a.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": other_project, "limit": 1}}))
            assert listed["ok"] is True
            made = answer(await at_b.call_tool("exec", {"op": "onto.task.create", "args": {"title": "filed in the session's project"}}))
            assert made["ok"] is True, made
            assert made["result"]["task"]["project_id"] == other_project
            assert any("current project_id" in warning for warning in made["meta"]["warnings"])
            unknown = answer(await elsewhere.call_tool("exec", {"op": "onto.task.create", "args": {"title": "no project known here"}}))
            assert unknown["ok"] is False and unknown["error"]["code"] == "VALIDATION_ERROR"
            # Back at A, the project B's call used is still the session's.
            again = answer(await at_a.call_tool("exec", {"op": "onto.task.create", "args": {"title": "filed from A"}}))
            assert again["result"]["task"]["project_id"] == other_project


def _waiting_writer(watcher: psycopg.Connection) -> int | None:
    """The backend that has written (it has a transaction id) and now waits for a lock on task_documents, if any."""
    row = watcher.execute(
        "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'"
        " AND backend_xid IS NOT NULL AND query ILIKE '%task_documents%'"
    ).fetchone()
    return row[0] if row else None


async def test_a_process_killed_in_the_middle_of_a_write_leaves_nothing_of_it(pg_cluster):
    """A holds the write lock and has inserted a document when it dies: none of it stays, and B goes on serving."""
    url = pg_cluster.new_database()
    token = make_token(url, "writer", "writer")
    a, b = (HttpServer(url, "--allow-write").start() for _ in range(2))
    title = "written by a process that died"
    call = {"op": "onto.task.doc.create_or_attach", "args": {"task_id": "20000000-0000-4000-8000-000000000015", "title": title}, "idempotency_key": "died-mid-write"}
    blocker = psycopg.connect(url)
    # Polled on one open connection: A's write gives up on the lock after the store's 5 s lock timeout.
    watcher = psycopg.connect(url, autocommit=True)
    try:
        documents_before = count(url, "document")
        # The test holds task_documents: A's write inserts the document, then waits to insert the link.
        blocker.execute("LOCK TABLE task_documents IN EXCLUSIVE MODE")
        with anyio.fail_after(CALL_TIMEOUT * 2):
            async with anyio.create_task_group() as calls:

                async def doomed() -> None:
                    # The server dies under this call: whatever the client makes of that is expected.
                    with contextlib.suppress(Exception):
                        async with connect_as(a.url, token) as to_a:
                            await to_a.call_tool("exec", call)

                calls.start_soon(doomed)
                writer = None
                while writer is None:
                    await anyio.sleep(0.05)
                    writer = await anyio.to_thread.run_sync(_waiting_writer, watcher)
                os.kill(a.process.pid, signal.SIGKILL)
                a.process.wait(timeout=10)
                blocker.rollback()  # the link insert proceeds, finds its client gone, and the transaction is undone
                await anyio.sleep(0.5)
                calls.cancel_scope.cancel()
            assert count(url, "document", title=title) == 0
            assert count(url, "document") == documents_before
            async with connect_as(b.url, token) as to_b:
                made = answer(await to_b.call_tool("exec", call))
                assert made["ok"] is True and not made["meta"].get("idempotent_replay"), made
                assert answer(await to_b.call_tool("exec", {"op": "onto.project.list"}))["ok"] is True
        assert count(url, "document", title=title) == 1
    finally:
        blocker.close()
        watcher.close()
        a.stop()
        b.stop()
        pg_cluster.give_back(url)


def test_a_callers_rate_is_the_services_not_each_processes(pg_cluster):
    """Burst 3 for the whole service: 2 requests at A and 1 at B spend it, the next one at either is 429."""
    url = pg_cluster.new_database()
    eager, patient = make_token(url, "eager", "reader"), make_token(url, "patient", "reader")
    a, b = (HttpServer(url, "--rate-limit", "0.5", "--rate-burst", "3").start() for _ in range(2))
    try:
        def post(server: HttpServer, token: str) -> httpx.Response:
            return httpx.post(server.url, json=INITIALIZE, headers=HEADERS | {"Authorization": f"Bearer {token}"}, timeout=CALL_TIMEOUT)

        assert [post(server, eager).status_code for server in (a, b, a)] == [200, 200, 200]
        for server in (b, a):
            limited = post(server, eager)
            assert limited.status_code == 429 and 1 <= int(limited.headers["retry-after"]) <= 2
        assert post(b, patient).status_code == 200, "another caller has a bucket of its own"
    finally:
        a.stop()
        b.stop()
        pg_cluster.give_back(url)


def test_a_handshake_session_is_known_only_to_the_process_that_opened_it(team):
    """Why docs/serve.md asks for sticky routing: B answers 404 for A's session, and the client must start again."""
    _, (a, b), tokens = team
    auth = {"Authorization": f"Bearer {tokens['writer']}"}
    opened = httpx.post(a.url, json=INITIALIZE, headers=HEADERS | auth, timeout=CALL_TIMEOUT)
    session = {"Mcp-Session-Id": opened.headers["mcp-session-id"], "Mcp-Protocol-Version": "2025-11-25"}
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}}
    assert httpx.post(b.url, json=listing, headers=HEADERS | auth | session, timeout=CALL_TIMEOUT).status_code == 404
    assert httpx.post(a.url, json=listing, headers=HEADERS | auth | session, timeout=CALL_TIMEOUT).status_code == 200
