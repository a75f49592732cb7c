"""Seed 000 §9's move flow, as a model would run it in each mode, on a connected SDK client.

"Move the API Spec doc under the Engineering folder": find the op, read its
schema where the mode needs it, find the document and the folder, dry-run
the move, run it, and check where the document now lives. Each flow uses
only the tools its mode lists.
"""

from __future__ import annotations

from typing import Any

import anyio
from mcp import Client

from mcp_checks import answer

TASK = "move a document under a folder in the document tree"
MOVED_PATH = "Engineering / API Spec"


def _folder(tree: list[dict[str, Any]], title: str) -> str:
    for node in tree:
        if node["title"] == title:
            return node["id"]
    raise AssertionError(f"no {title!r} in the tree's top level: {[n['title'] for n in tree]}")


async def _ok(client: Client, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool(tool, arguments)
    payload = answer(result)
    assert result.is_error is False and payload.get("ok") is True, payload
    return payload


async def gateway_flow(client: Client) -> list[str]:
    """search → exec (find the document and folder) → help on the op → dry-run → exec → check."""
    names = [tool.name for tool in (await client.list_tools()).tools]
    assert names == ["help", "exec", "batch", "search"]
    hits = (await _ok(client, "search", {"query": TASK, "kind": "write"}))["results"]
    op = hits[0]["op"]
    assert op == "onto.document.tree.move", hits[:3]
    document = (await _ok(client, "exec", {"op": "onto.document.search", "args": {"search": "API Spec", "limit": 10}}))["result"]["documents"][0]
    project = (await _ok(client, "exec", {"op": "onto.document.get", "args": {"document_id": document["id"]}}))["result"]["document"]["project_id"]
    tree = (await _ok(client, "exec", {"op": "onto.document.tree.get", "args": {"project_id": project, "include_documents": True}}))["result"]["tree"]
    usage = await _ok(client, "help", {"path": op})
    assert "new_parent_id" in str(usage["args"])
    move = {"project_id": project, "document_id": document["id"], "new_parent_id": _folder(tree, "Engineering")}
    preview = await _ok(client, "exec", {"op": op, "args": move, "dry_run": True})
    assert preview["meta"]["dry_run"] is True
    assert await _path(client, "exec", {"op": "onto.document.path.get", "args": {"document_id": document["id"]}}) == "API Spec"
    await _ok(client, "exec", {"op": op, "args": move, "state_digest": preview["meta"].get("state_digest")})
    return [await _path(client, "exec", {"op": "onto.document.path.get", "args": {"document_id": document["id"]}})]


async def heard(changes: list[Any], within: float = 5.0) -> None:
    """Returns once ``changes`` holds a tools/list_changed the client heard; fails after ``within`` seconds."""
    with anyio.fail_after(within):
        while not changes:
            await anyio.sleep(0.02)


async def hybrid_flow(client: Client, changes: list[Any]) -> list[str]:
    """list_tools (schema) → the op becomes a typed tool (tools/list_changed) → run_tool reads → dry-run → typed call → check.

    ``changes`` collects the tools/list_changed notifications (or listen events) the client hears.
    """
    first = [tool.name for tool in (await client.list_tools()).tools]
    assert first == ["list_tools", "run_tool"], "no op inspected yet: the typed lane is empty"
    listed = (await _ok(client, "list_tools", {"query": TASK, "detail": "schema", "limit": 1}))["tools"]
    assert listed[0]["name"] == "onto.document.tree.move" and "new_parent_id" in listed[0]["arguments_schema"]["properties"]
    await heard(changes)  # the client is told its tool list changed
    lane = {tool.name: tool for tool in (await client.list_tools()).tools}
    assert "onto__document__tree__move" in lane and {"list_tools", "run_tool"} <= set(lane)
    assert lane["onto__document__tree__move"].input_schema == listed[0]["arguments_schema"]

    def run(name: str, **arguments: Any) -> dict[str, Any]:
        return {"name": name, "arguments": arguments}

    document = (await _ok(client, "run_tool", run("onto.document.search", search="API Spec", limit=10)))["result"]["documents"][0]
    project = (await _ok(client, "run_tool", run("onto.document.get", document_id=document["id"])))["result"]["document"]["project_id"]
    tree = (await _ok(client, "run_tool", run("onto.document.tree.get", project_id=project, include_documents=True)))["result"]["tree"]
    move = {"project_id": project, "document_id": document["id"], "new_parent_id": _folder(tree, "Engineering")}
    preview = await _ok(client, "run_tool", {"name": "onto.document.tree.move", "arguments": move, "dry_run": True})
    assert preview["meta"]["dry_run"] is True
    await _ok(client, "onto__document__tree__move", move)
    return [await _path(client, "run_tool", run("onto.document.path.get", document_id=document["id"]))]


async def protocol_flow(client: Client) -> list[str]:
    """list → search_tool_by_category → expand_tool → call_tool (find, dry-run, move, check)."""
    names = [tool.name for tool in (await client.list_tools()).tools]
    assert names == ["list", "search_tool_by_category", "search_nodes", "expand_tool", "call_tool"]
    root = await _ok(client, "list", {})
    assert "onto" in [node["name"] for node in root["nodes"]]
    pointers = (await _ok(client, "search_tool_by_category", {"query": TASK, "category_path": ["onto", "document"]}))["results"]
    tool_id = pointers[0]["tool_id"]
    assert tool_id == "onto.document.tree.move", pointers[:3]
    expanded = await _ok(client, "expand_tool", {"tool_id": tool_id})
    assert {"project_id", "document_id", "new_parent_id"} <= set(expanded["args_schema"]["properties"])

    def call(tool: str, **arguments: Any) -> dict[str, Any]:
        return {"tool_id": tool, "arguments": arguments}

    document = (await _ok(client, "call_tool", call("onto.document.search", search="API Spec", limit=10)))["result"]["documents"][0]
    project = (await _ok(client, "call_tool", call("onto.document.get", document_id=document["id"])))["result"]["document"]["project_id"]
    tree = (await _ok(client, "call_tool", call("onto.document.tree.get", project_id=project, include_documents=True)))["result"]["tree"]
    move = {"project_id": project, "document_id": document["id"], "new_parent_id": _folder(tree, "Engineering")}
    preview = await _ok(client, "call_tool", {"tool_id": tool_id, "arguments": move, "dry_run": True})
    assert preview["meta"]["dry_run"] is True
    await _ok(client, "call_tool", {"tool_id": tool_id, "arguments": move})
    return [await _path(client, "call_tool", call("onto.document.path.get", document_id=document["id"]))]


async def _path(client: Client, tool: str, arguments: dict[str, Any]) -> str:
    return (await _ok(client, tool, arguments))["result"]["path_text"]
