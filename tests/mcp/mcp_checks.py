"""What every transport must do, as checks on a connected SDK client; the stdio and HTTP tests run the same ones."""

from __future__ import annotations

import json
from typing import Any

import pytest
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from mcp_server_driver import DEMO_PROJECT

GATEWAY_TOOLS = ("help", "exec", "batch", "search")


def answer(result: Any) -> Any:
    """The structured content, after checking that the text block says exactly the same."""
    assert result.structured_content is not None, result
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content
    return result.structured_content


async def lists_the_gateway_tools(client: Client) -> None:
    listing = await client.list_tools()
    tools = {tool.name: tool for tool in listing.tools}
    assert tuple(tools) == GATEWAY_TOOLS
    assert tools["exec"].input_schema["required"] == ["op"]
    assert set(tools["exec"].input_schema["properties"]) == {"op", "args", "dry_run", "idempotency_key", "state_digest", "id_seed"}
    assert tools["batch"].input_schema["required"] == ["steps"]
    assert tools["search"].input_schema["required"] == ["query"]
    assert tools["help"].annotations.read_only_hint is True
    assert tools["search"].annotations.read_only_hint is True
    assert tools["exec"].annotations.read_only_hint is False and tools["exec"].annotations.destructive_hint is True
    assert "help('')" in tools["help"].description and "onto" not in tools["help"].description, "the map comes from help(''), not the description"
    again = await client.list_tools(cache_mode="refresh")
    assert [t.model_dump() for t in again.tools] == [t.model_dump() for t in listing.tools], "tools/list never changes"


async def answers_help(client: Client) -> None:
    result = await client.call_tool("help", {"path": ""})
    root = answer(result)
    assert result.is_error is False and root["ok"] is True
    assert {group["name"] for group in root["groups"]} >= {"onto", "util"}
    assert "task" in next(g for g in root["groups"] if g["name"] == "onto")["holds"]
    op = answer(await client.call_tool("help", {"path": "onto.task.create"}))
    assert op["type"] == "op" and op["op"] == "onto.task.create" and op["kind"] == "write"


async def runs_a_read(client: Client) -> None:
    result = await client.call_tool("exec", {"op": "onto.project.list"})
    envelope = answer(result)
    assert result.is_error is False
    assert envelope["ok"] is True and envelope["op"] == "onto.project.list"
    assert DEMO_PROJECT in {project["id"] for project in envelope["result"]["projects"]}


async def dry_runs_a_write(client: Client) -> None:
    before = answer(await client.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT}}))["result"]["total"]
    result = await client.call_tool("exec", {"op": "onto.task.create", "args": {"project_id": DEMO_PROJECT, "title": "Only a preview"}, "dry_run": True})
    envelope = answer(result)
    assert result.is_error is False and envelope["ok"] is True
    assert envelope["meta"]["dry_run"] is True
    created = envelope["meta"]["diff"]["created"]
    assert [entry["kind"] for entry in created] == ["task"] and created[0]["row"]["title"] == "Only a preview"
    after = answer(await client.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT}}))["result"]["total"]
    assert after == before, "a dry run keeps nothing"
    missing = answer(await client.call_tool("exec", {"op": "onto.task.get", "args": {"task_id": created[0]["id"]}}))
    assert missing["error"]["code"] == "NOT_FOUND"


async def reports_validation_errors_as_tool_errors(client: Client) -> None:
    result = await client.call_tool("exec", {"op": "onto.task.create", "args": {"project_id": "not-a-uuid", "title": 7}})
    envelope = answer(result)
    assert result.is_error is True
    assert envelope["ok"] is False and envelope["error"]["code"] == "VALIDATION_ERROR"
    fields = {error["field"] for error in envelope["error"]["details"]["field_errors"]}
    assert {"args.project_id", "args.title"} <= fields
    assert envelope["error"]["help_path"] == "onto.task.create"
    # The SDK passes unknown tool arguments through; the router must refuse them.
    unknown = await client.call_tool("exec", {"op": "onto.project.list", "bogus": 1})
    assert unknown.is_error is True and answer(unknown)["error"]["code"] == "VALIDATION_ERROR"
    assert "bogus" in answer(unknown)["error"]["message"]


async def runs_a_batch(client: Client) -> None:
    steps = [
        {"tool": "help", "args": {"path": "onto.task"}},
        {"tool": "exec", "args": {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT, "limit": 1}}},
        {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "$1.result.tasks[0].id"}}},
        {"tool": "exec", "args": {"op": "onto.task.get", "args": {"task_id": "not-a-uuid"}}},
    ]
    result = await client.call_tool("batch", {"steps": steps, "on_error": "continue"})
    results = answer(result)["results"]
    assert result.is_error is False, "a step's error is data when other steps succeeded"
    assert [step["ok"] for step in results] == [True, True, True, False]
    assert results[2]["result"]["task"]["id"] == results[1]["result"]["tasks"][0]["id"]
    rejected = await client.call_tool("batch", {"steps": []})
    assert rejected.is_error is True and answer(rejected)["results"][0]["error"]["code"] == "VALIDATION_ERROR"


async def refuses_an_unknown_tool_as_a_protocol_error(client: Client) -> None:
    # Only the four gateway tools exist: a typed op name the core could route is still not a tool here.
    with pytest.raises(MCPError) as caught:
        await client.call_tool("onto__task__list", {})
    assert caught.value.code == INVALID_PARAMS
    assert "batch, exec, help, search" in caught.value.message


CHECKS = (
    lists_the_gateway_tools, answers_help, runs_a_read, dry_runs_a_write,
    reports_validation_errors_as_tool_errors, runs_a_batch, refuses_an_unknown_tool_as_a_protocol_error,
)
