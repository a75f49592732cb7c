"""The exec tool's id_seed over MCP: a real run given a dry-run's seed creates the ids that dry-run showed.

Each test runs a real ``opgate serve --allow-write`` on a fresh demo workspace,
spoken to by the SDK's own client, in both protocol eras.
"""

from __future__ import annotations

import anyio
import pytest

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, DEMO_PROJECT, ERAS, connect, stdio_params

pytestmark = pytest.mark.anyio


def create_task(title: str, **options) -> dict:
    return {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": title}, **options}


def created_ids(envelope: dict) -> list[str]:
    return [entity["id"] for entity in envelope["meta"]["diff"]["created"]]


async def task_titles(client) -> list[str]:
    envelope = answer(await client.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT, "limit": 200}}))
    assert envelope["ok"], envelope
    return [task["title"] for task in envelope["result"]["tasks"]]


@pytest.mark.parametrize("era", ERAS)
async def test_the_exec_tool_offers_id_seed_with_a_description(db, era):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db), era) as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
    id_seed = tools["exec"].input_schema["properties"]["id_seed"]
    assert id_seed["type"] == "string" and "dry-run" in id_seed["description"]


@pytest.mark.parametrize("era", ERAS)
async def test_a_run_with_the_dry_runs_id_seed_creates_the_ids_the_dry_run_showed(db, era):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--allow-write"), era) as client:
            rehearsal = answer(await client.call_tool("exec", create_task("Seeded over MCP", dry_run=True)))
            assert rehearsal["ok"] and rehearsal["meta"]["dry_run"] is True, rehearsal
            shown = created_ids(rehearsal)
            seed = rehearsal["meta"]["id_seed"]
            assert len(shown) == 1 and isinstance(seed, str)
            assert "Seeded over MCP" not in await task_titles(client), "the dry-run kept nothing"

            run = answer(await client.call_tool("exec", create_task(
                "Seeded over MCP", id_seed=seed, state_digest=rehearsal["meta"]["state_digest"],
            )))
            assert run["ok"], run
            assert run["result"]["task"]["id"] == shown[0]
            assert created_ids(run) == shown
            fetched = answer(await client.call_tool("exec", {"op": "onto.task.get", "args": {"task_id": shown[0]}}))
            assert fetched["ok"] and fetched["result"]["task"]["title"] == "Seeded over MCP", fetched


@pytest.mark.parametrize("era", ERAS)
async def test_without_the_seed_the_run_makes_new_ids(db, era):
    """The control: what makes the ids match is the seed, not a deterministic id scheme."""
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--allow-write"), era) as client:
            rehearsal = answer(await client.call_tool("exec", create_task("Unseeded", dry_run=True)))
            run = answer(await client.call_tool("exec", create_task("Unseeded")))
    assert run["ok"], run
    assert created_ids(run) != created_ids(rehearsal)


@pytest.mark.parametrize("era", ERAS)
async def test_a_malformed_id_seed_is_a_validation_error_and_writes_nothing(db, era):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--allow-write"), era) as client:
            for seed in ("short", 12345678):
                result = await client.call_tool("exec", create_task("Never kept", id_seed=seed))
                envelope = answer(result)
                assert result.is_error is True and envelope["error"]["code"] == "VALIDATION_ERROR", envelope
                fields = [error["field"] for error in envelope["error"]["details"]["field_errors"]]
                assert any("id_seed" in field for field in fields), envelope
            assert "Never kept" not in await task_titles(client)
