"""Deep trees and deep stored values read back through the SDK's own client.

From about 100 levels of documents the client could not parse the tree
answer, and props a few hundred levels deep were stored and then failed
("Maximum serialization depth exceeded"). The workspace is built with a real
store first, then served by a real ``opgate serve`` subprocess.
"""

from __future__ import annotations

import json

import anyio
import pytest

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, DEMO_PROJECT, ERAS, connect, stdio_params
from opgate.core.store import CUT_MARKER, open_store

pytestmark = pytest.mark.anyio
CHAIN = 200


def _nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


def _deep_workspace(path) -> tuple[str, str]:
    """A chain of CHAIN documents and a task whose props were stored 450 levels deep; their ids."""
    with open_store(path) as store, store.write() as tx:
        parent = top = None
        for n in range(CHAIN):
            parent = tx.insert("document", {"project_id": DEMO_PROJECT, "title": f"Level {n}", "type_key": "document.note",
                                            "parent_id": parent})["id"]
            top = top or parent
        task = tx.insert("task", {"project_id": DEMO_PROJECT, "title": "Stored before the depth rule"})["id"]
        tx._run("UPDATE tasks SET props = ? WHERE id = ?", (json.dumps({"legacy": _nested(450)}), task))
    return top, task


async def _exec(client, op: str, args: dict) -> dict:
    return answer(await client.call_tool("exec", {"op": op, "args": args}))


@pytest.mark.parametrize("era", ERAS)
async def test_deep_trees_and_deep_stored_props_reach_the_client(db, era):
    top, task = _deep_workspace(db)
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--allow-write"), era) as client:
            whole = await _exec(client, "onto.document.tree.get", {"project_id": DEMO_PROJECT})
            assert whole["ok"], whole
            tree = await _exec(client, "onto.document.tree.get", {"project_id": DEMO_PROJECT, "root_id": top})
            assert tree["ok"], tree
            node = tree["result"]["tree"][0]
            while node["children"]:
                node = node["children"][0]
            assert node["more"]["hidden"] == CHAIN - 21
            below = await _exec(client, node["more"]["next"]["op"], node["more"]["next"]["args"])
            assert below["ok"] and below["result"]["tree"][0]["id"] == node["id"]

            path = await _exec(client, "onto.document.path.get", {"document_id": node["id"]})
            assert path["ok"] and path["result"]["path"][0]["id"] == top

            read = await _exec(client, "onto.task.get", {"task_id": task})
            assert read["ok"], read
            assert CUT_MARKER in json.dumps(read["result"]["task"]["props"])

            deep = await _exec(client, "onto.task.create", {"project_id": DEMO_PROJECT, "title": "Deep", "props": _nested(40)})
            assert deep["error"]["code"] == "VALIDATION_ERROR"
            assert deep["error"]["details"]["field_errors"][0]["field"].startswith("args.props.a.a")
