"""Every mode of ``opgate serve --mode``, driven by the SDK's client against a real server.

An MCP client completes seed 000 §9's move flow in the gateway, hybrid and
protocol modes, in both protocol eras; full and deferred list one typed tool
per op; a tool the mode does not offer is a protocol error that names what to
call instead, and repeating it unchanged is counted.
"""

from __future__ import annotations

from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp.shared.exceptions import MCPError

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, ERAS, HttpServer, connect, stdio_params
from move_flows import MOVED_PATH, gateway_flow, hybrid_flow, protocol_flow

pytestmark = pytest.mark.anyio


def hearing_changes() -> tuple[list[Any], Any]:
    """A message handler that keeps the tools/list_changed notifications a handshake-era client receives."""
    heard: list[Any] = []

    async def handler(message: Any) -> None:
        if isinstance(message, types.ToolListChangedNotification):
            heard.append(message)

    return heard, handler


@pytest.mark.parametrize("era", ERAS)
async def test_the_move_flow_in_gateway_mode(db, era):
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--allow-write", "--mode", "gateway"), era) as client:
            assert await gateway_flow(client) == [MOVED_PATH]


@pytest.mark.parametrize("era", ERAS)
async def test_the_move_flow_in_protocol_mode(db, era):
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--allow-write", "--mode", "protocol"), era) as client:
            assert await protocol_flow(client) == [MOVED_PATH]


async def test_the_move_flow_in_hybrid_mode_over_stdio_with_the_handshake(db):
    heard, handler = hearing_changes()
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--allow-write", "--mode", "hybrid"), "legacy", message_handler=handler) as client:
            assert client.server_capabilities.tools.list_changed is True
            assert await hybrid_flow(client, heard) == [MOVED_PATH]
    assert len(heard) == 1, "told once: when the moved op joined the lane, not on every call"


async def test_the_move_flow_in_hybrid_mode_over_stdio_at_2026(db):
    """At 2026-07-28 the change comes on the client's subscriptions/listen stream."""
    heard: list[Any] = []
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db, "--allow-write", "--mode", "hybrid"), "2026-07-28") as client:
            async with anyio.create_task_group() as listening, client.listen(tools_list_changed=True) as events:

                async def collect() -> None:
                    async for event in events:
                        heard.append(event)

                listening.start_soon(collect)
                assert await hybrid_flow(client, heard) == [MOVED_PATH]
                listening.cancel_scope.cancel()


async def test_the_move_flow_in_hybrid_mode_over_http(tmp_path):
    server = HttpServer(tmp_path / "workspace.db", "--allow-write", "--mode", "hybrid").start()
    try:
        heard, handler = hearing_changes()
        with anyio.fail_after(CALL_TIMEOUT * 2):
            async with connect(server.url, "legacy", message_handler=handler) as client:
                assert await hybrid_flow(client, heard) == [MOVED_PATH]
    finally:
        server.stop()


@pytest.mark.parametrize("mode", ["full", "deferred"])
async def test_full_and_deferred_list_one_typed_tool_per_op(db, mode):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--mode", mode), "legacy") as client:
            tools = {tool.name: tool for tool in (await client.list_tools()).tools}
            assert "onto__document__tree__move" in tools and "exec" not in tools and len(tools) > 50
            marked = [name for name, tool in tools.items() if (tool.meta or {}).get("io.opgate/defer_loading")]
            assert marked == (list(tools) if mode == "deferred" else [])
            listed = answer(await client.call_tool("onto__project__list", {}))
            assert listed["ok"] is True and listed["result"]["projects"]
            denied = await client.call_tool("onto__task__create", {"project_id": "10000000-0000-4000-8000-000000000001", "title": "Not written"})
            assert denied.is_error is True and answer(denied)["error"]["code"] == "PERMISSION_DENIED"


async def test_an_unknown_tool_in_hybrid_names_the_tools_to_use_and_counts_repeats(db):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--mode", "hybrid"), "legacy") as client:
            messages = []
            for _ in range(5):
                with pytest.raises(MCPError) as caught:
                    await client.call_tool("create_task", {"title": "x"})
                assert caught.value.code == types.INVALID_PARAMS
                messages.append(caught.value.message)
    assert "list_tools" in messages[0] and "run_tool" in messages[0] and "Attempt" not in messages[0]
    assert "Attempt 2 of 3" in messages[1] and "Attempt 3 of 3" in messages[2]
    assert "cannot work" in messages[3] and "cannot work" in messages[4]
    assert all(len(m) < 600 for m in messages), "the hint stays short however often the call repeats"


async def test_a_repeated_malformed_run_tool_gets_a_bounded_retry_hint(db):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(stdio_params(db, "--mode", "hybrid"), "legacy") as client:
            errors = []
            for _ in range(5):
                result = await client.call_tool("run_tool", {"name": "onto.task.get", "arguments": {"task_id": 7}})
                assert result.is_error is True
                errors.append(answer(result)["error"])
            fixed = await client.call_tool("run_tool", {"name": "onto.task.get", "arguments": {"task_id": "20000000-0000-4000-8000-000000000006"}})
    assert all(e["code"] == "VALIDATION_ERROR" for e in errors)
    assert "retry" not in errors[0]
    assert [e["retry"]["attempt"] for e in errors[1:]] == [2, 3, 4, 5]
    assert [e["retry"]["stop"] for e in errors[1:]] == [False, False, True, True]
    assert fixed.is_error is False


async def test_the_gateway_mode_is_the_default_and_a_config_file_can_pick_another(tmp_path):
    config = tmp_path / "opgate.toml"
    config.write_text('mode = "protocol"\n')
    params = stdio_params(tmp_path / "workspace.db")
    params.args[params.args.index("--db"):params.args.index("--db")] = ["--config", str(config)]
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(params, "legacy") as client:
            assert [tool.name for tool in (await client.list_tools()).tools][0] == "list"
        async with connect(stdio_params(tmp_path / "other.db"), "legacy") as client:
            assert [tool.name for tool in (await client.list_tools()).tools] == ["help", "exec", "batch", "search"]
