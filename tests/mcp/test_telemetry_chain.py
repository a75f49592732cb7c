"""A live host's discovery chain reaches the call log: an MCP client searches, reads help, runs the op,
and ``opgate stats`` shows the chain from the search to the exec."""

from __future__ import annotations

import json
import signal
import subprocess
import sys

import anyio
import pytest

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, DEMO_PROJECT, HttpServer, connect, stdio_params

pytestmark = pytest.mark.anyio

API_SPEC = "50000000-0000-4000-8000-000000000002"
ENGINEERING = "50000000-0000-4000-8000-000000000001"


async def test_an_mcp_session_shows_its_chain_in_opgate_stats(db):
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--allow-write")) as client:
            found = answer(await client.call_tool("search", {"query": "move doc"}))
            assert found["results"][0]["op"] == "onto.document.tree.move"
            answer(await client.call_tool("help", {"path": "onto.document.tree.move"}))
            moved = answer(await client.call_tool("exec", {"op": "onto.document.tree.move", "args": {"project_id": DEMO_PROJECT, "document_id": API_SPEC, "new_parent_id": ENGINEERING}}))
            assert moved["ok"], moved
    # The server has exited: what it queued was written on the way out.
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", "--json"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    stats = json.loads(shown.stdout)
    assert stats["chains"]["recent"][-1]["steps"] == ['search "move doc"', "help onto.document.tree.move", "exec onto.document.tree.move ok"]
    assert {row["kind"] for row in stats["by_kind"]} >= {"search", "help", "exec"}


async def test_a_hybrid_session_logs_its_lane_offers_and_generic_calls(db):
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--mode", "hybrid")) as client:
            listed = await client.list_tools()
            names = {tool.name for tool in listed.tools}
            assert {"list_tools", "run_tool"} <= names
            answer(await client.call_tool("list_tools", {"query": "list tasks"}))
            ran = answer(await client.call_tool("run_tool", {"name": "onto.task.list", "arguments": {"project_id": DEMO_PROJECT}}))
            assert ran["ok"], ran
            refused = answer(await client.call_tool("run_tool", {"name": "onto.task.get", "arguments": {}}))
            assert refused["error"]["code"] == "VALIDATION_ERROR"
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", "--json"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    lane = json.loads(shown.stdout)["lane"]
    # One offer per tools/list: the server's checks for a changed lane after each call are not offers.
    assert lane["turns"] == 1 and lane["total_schemas_max"] == len(names)
    assert (lane["list_tools_calls"], lane["run_tool_calls"], lane["run_tool_validation_failures"]) == (1, 2, 1)
    chain = json.loads(shown.stdout)["chains"]["recent"][-1]["steps"]
    assert chain[0] == 'list_tools "list tasks"' and "run_tool onto.task.list ok" in chain


async def test_a_hybrid_http_call_of_2026_07_28_is_not_counted_as_a_lane_offer(tmp_path):
    # The SDK checks Mcp-Param headers against the called tool's schema; the server hands it the
    # schema directly, so no hidden tools/list runs per call (that would log an offer and reset the lane).
    db = tmp_path / "workspace.db"
    server = HttpServer(db, "--mode", "hybrid").start()
    try:
        with anyio.fail_after(CALL_TIMEOUT * 2):
            async with connect(server.url, "2026-07-28") as client:
                names = {tool.name for tool in (await client.list_tools()).tools}
                for query in ("list tasks", "move doc", "find goals"):
                    answer(await client.call_tool("list_tools", {"query": query}))
                ran = answer(await client.call_tool("run_tool", {"name": "onto.task.list", "arguments": {"project_id": DEMO_PROJECT}}))
                assert ran["ok"], ran
    finally:
        server.stop()
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", "--json"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    lane = json.loads(shown.stdout)["lane"]
    assert lane["turns"] == 1 and lane["total_schemas_max"] == len(names)
    assert (lane["list_tools_calls"], lane["run_tool_calls"]) == (3, 1)


async def test_an_http_server_stopped_by_sigterm_writes_its_last_calls(tmp_path):
    # uvicorn ends its graceful shutdown by raising SIGTERM again, which runs neither finally
    # nor atexit: the gateways must be closed (their call logs written out) before that.
    db = tmp_path / "workspace.db"
    server = HttpServer(db).start()
    try:
        with anyio.fail_after(CALL_TIMEOUT * 2):
            async with connect(server.url, "2026-07-28") as client:
                for n in range(3):
                    listed = answer(await client.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT, "limit": n + 1}}))
                    assert listed["ok"], listed
    finally:
        server.stop()  # SIGTERM at once: well inside the call log's window
    assert server.process.returncode == -15, server.stderr
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", "--json"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    calls = {row["kind"]: row["calls"] for row in json.loads(shown.stdout)["by_kind"]}
    assert calls.get("exec") == 3, calls


async def test_an_http_server_interrupted_twice_ends_quietly_and_writes_its_last_calls(tmp_path):
    # ctrl+c twice: uvicorn raised SIGINT again once per press after its shutdown, and the second one
    # interrupted asyncio's own ending, printing a lifespan traceback.
    db = tmp_path / "workspace.db"
    server = HttpServer(db).start()
    try:
        with anyio.fail_after(CALL_TIMEOUT * 2):
            async with connect(server.url, "2026-07-28") as client:
                listed = answer(await client.call_tool("exec", {"op": "onto.task.list", "args": {"project_id": DEMO_PROJECT, "limit": 2}}))
                assert listed["ok"], listed
        assert server.process is not None
        server.process.send_signal(signal.SIGINT)
        await anyio.sleep(0.05)
        server.process.send_signal(signal.SIGINT)
        server.process.wait(timeout=30)
    finally:
        server.stop()
    await anyio.sleep(0.2)  # the stderr reader thread takes the last lines
    assert "Traceback" not in server.stderr and "ERROR" not in server.stderr, server.stderr
    assert server.process.returncode == 130, server.stderr
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", "--json"], capture_output=True, text=True, timeout=120)
    assert {row["kind"]: row["calls"] for row in json.loads(shown.stdout)["by_kind"]}.get("exec") == 1
