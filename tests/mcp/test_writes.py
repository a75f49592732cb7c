"""Writes through MCP: allow-write, dry-run, idempotency keys, and confirmation by elicitation.

Ops that need confirmation ask the person with an elicitation form when the
client can show one: a server-to-client request on handshake connections
(``legacy``), an ``InputRequiredResult`` and a retry at 2026-07-28. Clients
without the capability get PERMISSION_DENIED. Both eras run every case.
"""

from __future__ import annotations

import anyio
import mcp_types as types
import pytest

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, DEMO_PROJECT, ERAS, answering, connect, stdio_params

pytestmark = pytest.mark.anyio

IE11_TASK = "20000000-0000-4000-8000-000000000009"  # "Prototype IE11 fallback styles": the demo's obsolete task
KEPT_TASK = "20000000-0000-4000-8000-000000000006"
DELETED_OVER_HTTP = {"2026-07-28": "20000000-0000-4000-8000-000000000007", "legacy": "20000000-0000-4000-8000-000000000024"}
DELETED_IN_BATCH = {"2026-07-28": "20000000-0000-4000-8000-000000000023", "legacy": "20000000-0000-4000-8000-000000000022"}


async def delete(client, task_id: str):
    return await client.call_tool("exec", {"op": "onto.task.delete", "args": {"task_id": task_id}})


async def task_exists(client, task_id: str) -> bool:
    envelope = answer(await client.call_tool("exec", {"op": "onto.task.get", "args": {"task_id": task_id}}))
    assert envelope["ok"] or envelope["error"]["code"] == "NOT_FOUND", envelope
    return envelope["ok"]


@pytest.mark.parametrize("era", ERAS)
async def test_a_confirmed_delete_over_stdio_deletes(db, era):
    callback = answering(confirm=True)
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--allow-write"), era, elicitation_callback=callback) as client:
            result = await delete(client, IE11_TASK)
            assert result.is_error is False, answer(result)
            assert answer(result)["result"]["deleted"]["id"] == IE11_TASK
            assert not await task_exists(client, IE11_TASK)
    assert len(callback.shown) == 1
    assert "onto.task.delete" in callback.shown[0]
    assert "delete task 'Prototype IE11 fallback styles'" in callback.shown[0]


@pytest.mark.parametrize("era", ERAS)
async def test_a_confirmed_delete_over_http_deletes(http_server, era):
    task = DELETED_OVER_HTTP[era]
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era, elicitation_callback=answering(confirm=True)) as client:
            result = await delete(client, task)
            assert result.is_error is False, answer(result)
            assert not await task_exists(client, task)


@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize(("action", "confirm"), [("decline", None), ("cancel", None), ("accept", False)])
async def test_a_refused_confirmation_deletes_nothing(http_server, era, action, confirm):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era, elicitation_callback=answering(action=action, confirm=confirm)) as client:
            result = await delete(client, KEPT_TASK)
            error = answer(result)["error"]
            assert result.is_error is True and error["code"] == "PERMISSION_DENIED"
            assert "did not confirm" in error["message"]
            assert await task_exists(client, KEPT_TASK)


@pytest.mark.parametrize("era", ERAS)
async def test_a_client_that_cannot_elicit_is_refused(http_server, era):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era) as client:
            result = await delete(client, KEPT_TASK)
            error = answer(result)["error"]
            assert result.is_error is True and error["code"] == "PERMISSION_DENIED"
            assert "no way to ask" in error["message"]
            assert await task_exists(client, KEPT_TASK)


@pytest.mark.parametrize("era", ERAS)
async def test_a_batch_that_stops_to_ask_runs_its_earlier_writes_once(http_server, era):
    title = f"Written once before asking ({era})"
    steps = [
        {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": title}}},
        {"tool": "exec", "args": {"op": "onto.task.delete", "args": {"task_id": DELETED_IN_BATCH[era]}}},
    ]
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era, elicitation_callback=answering(confirm=True)) as client:
            result = await client.call_tool("batch", {"steps": steps})
            assert [step["ok"] for step in answer(result)["results"]] == [True, True]
            tasks = answer(await client.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT, "limit": 100}}))
            assert [task["title"] for task in tasks["result"]["tasks"]].count(title) == 1


@pytest.mark.parametrize("era", ERAS)
async def test_a_dry_run_of_a_confirmed_op_does_not_ask(http_server, era):
    callback = answering(confirm=True)
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era, elicitation_callback=callback) as client:
            result = await client.call_tool("exec", {"op": "onto.task.delete", "args": {"task_id": KEPT_TASK}, "dry_run": True})
            envelope = answer(result)
            assert result.is_error is False and envelope["meta"]["dry_run"] is True
            assert [entry["id"] for entry in envelope["meta"]["diff"]["deleted"]] == [KEPT_TASK]
            assert await task_exists(client, KEPT_TASK)
    assert callback.shown == []


@pytest.mark.parametrize("era", ERAS)
async def test_an_idempotency_key_replays_the_first_answer(http_server, era):
    call = {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": f"Idempotent ({era})"}, "idempotency_key": f"mcp-{era}"}
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era) as client:
            first = answer(await client.call_tool("exec", call))
            second = answer(await client.call_tool("exec", call))
    assert first["ok"] and second["ok"]
    assert second["result"]["task"]["id"] == first["result"]["task"]["id"]
    assert second["meta"].get("idempotent_replay") is True


async def test_writes_are_off_unless_the_server_allows_them(db):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db), elicitation_callback=answering(confirm=True)) as client:
            result = await client.call_tool("exec", {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": "Not written"}})
            error = answer(result)["error"]
            assert result.is_error is True and error["code"] == "PERMISSION_DENIED" and "allow_write" in error["message"]
            assert await task_exists(client, IE11_TASK)
            assert answer(await delete(client, IE11_TASK))["error"]["code"] == "PERMISSION_DENIED"
            assert await task_exists(client, IE11_TASK)


async def test_a_2026_confirmation_answers_only_its_own_call_and_expires(db):
    """Driven by hand: the answer must come back with the same call, and a call nobody answers is refused."""
    yes = {"confirm": types.ElicitResult(action="accept", content={"confirm": True})}
    asked = {"op": "onto.task.delete", "args": {"task_id": IE11_TASK}}
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--allow-write", "--confirm-timeout", "1"), elicitation_callback=answering(confirm=True)) as client:
            question = await client.session.call_tool("exec", asked, allow_input_required=True)
            assert isinstance(question, types.InputRequiredResult) and question.request_state
            assert "onto.task.delete" in question.input_requests["confirm"].params.message
            other = {"op": "onto.task.delete", "args": {"task_id": KEPT_TASK}}
            wrong = await client.session.call_tool("exec", other, input_responses=yes, request_state=question.request_state)
            assert wrong.is_error is True and "no call is waiting" in answer(wrong)["error"]["message"]
            await anyio.sleep(1.5)
            late = await client.session.call_tool("exec", asked, input_responses=yes, request_state=question.request_state)
            assert late.is_error is True and answer(late)["error"]["code"] == "PERMISSION_DENIED"
            assert await task_exists(client, IE11_TASK) and await task_exists(client, KEPT_TASK)
