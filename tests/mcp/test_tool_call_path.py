"""tools/call's direct path: the same wire result as the SDK's whole way, for every protocol version, and the SDK's way for the rest."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterator
from pathlib import PurePosixPath
from typing import Any

import pytest
from mcp import Client
from mcp.server.runner import ServerRunner
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS

from opgate.core import Gateway
from opgate.mcp_server import GatewayMCPServer, tool_result
from opgate.mcp_server._tool_call_path import is_plain
from opgate.mcp_server._tools import tool_result_wire

ANSWERS = {
    "an envelope": {"op": "onto.project.list", "ok": True, "result": {"projects": [{"id": "p1", "name": "Ünïcode ✓ \u2028", "n": 3, "x": 1.5, "none": None}]}},
    "an error": {"op": "onto.task.get", "ok": False, "error": {"code": "NOT_FOUND", "message": "no task 'x'", "details": {}}},
    "a batch": [{"ok": True, "result": {}}, {"ok": False, "error": {"code": "X"}}],
    "a failed batch": [{"ok": False, "error": {"code": "X"}}],
    "values json can only stringify": {"ok": True, "result": {"when": datetime.date(2026, 11, 27), "where": PurePosixPath("/a/b")}},
    "a word that looks like a number json lacks": {"ok": True, "result": {"name": "NaN Infinity"}},
    "a number json lacks": {"ok": True, "result": {"ratio": float("nan"), "top": float("inf")}},
    "a help payload": {"ok": True, "path": "onto", "children": []},
    "text that is not unicode": {"ok": False, "query": "\udcff task", "results": [], "\ud800": 1},
}


@pytest.fixture(scope="module")
def sdk_runner() -> Iterator[ServerRunner]:
    opgate_server = GatewayMCPServer(lambda **options: Gateway(**options))
    yield ServerRunner(opgate_server.server, None, None)  # _serialize reads only the server
    opgate_server.close()


@pytest.mark.parametrize("version", HANDSHAKE_PROTOCOL_VERSIONS + MODERN_PROTOCOL_VERSIONS)
@pytest.mark.parametrize("label", ANSWERS)
def test_the_direct_result_is_the_sdks_own_wire_result(sdk_runner, version, label):
    answer = ANSWERS[label]
    expected = sdk_runner._serialize("tools/call", version, tool_result(answer))
    direct = tool_result_wire(answer, version, lambda: sdk_runner.server.server_info_stamp)
    # Key for key and in the same order, so the bytes on the wire are the same too.
    assert json.dumps(direct, allow_nan=True) == json.dumps(expected, allow_nan=True)
    json.dumps(direct, ensure_ascii=False, allow_nan=True).encode()  # every answer can go on the wire as UTF-8


def test_only_plain_calls_take_the_direct_path():
    assert is_plain({"name": "exec", "arguments": {}, "_meta": {}})
    assert is_plain({"name": "exec"})
    assert not is_plain({"name": "exec", "requestState": "s"})
    assert not is_plain({"name": 3})
    assert not is_plain(None)


class _Reached:
    """A middleware after the direct path: it sees the calls that went the SDK's whole way."""

    def __init__(self) -> None:
        self.calls: list[Any] = []

    async def __call__(self, ctx, call_next):
        if ctx.method == "tools/call":
            self.calls.append(dict(ctx.params or {}))
        return await call_next(ctx)


@pytest.mark.anyio
@pytest.mark.parametrize("era", ["2026-07-28", "legacy"])
async def test_plain_calls_are_answered_directly_and_the_rest_the_sdks_way(tmp_path, era):
    mcp_server = GatewayMCPServer(lambda **options: Gateway(db_path=tmp_path / "w.db", **options))
    reached = _Reached()
    mcp_server.server.middleware.append(reached)
    try:
        async with Client(mcp_server.server, mode=era) as client:
            direct = await client.call_tool("exec", {"op": "onto.project.list"})
            assert reached.calls == []
            assert not direct.is_error and json.loads(direct.content[0].text)["ok"] is True
            assert direct.structured_content == json.loads(direct.content[0].text)
            with pytest.raises(MCPError) as unknown:  # a tool this server does not have: the protocol error, as before
                await client.call_tool("nope", {})
            assert unknown.value.error.code == INVALID_PARAMS and "This server has batch, exec, help, search" in unknown.value.error.message
            failed = await client.call_tool("exec", {"op": "onto.no.such"})
            assert failed.is_error and json.loads(failed.content[0].text)["ok"] is False
            assert reached.calls == []
    finally:
        mcp_server.close()


def _steady(result: dict[str, Any]) -> dict[str, Any]:
    """A tool result without what differs from call to call (the trace id and the latency), in its text and structure alike."""
    text = json.loads(result["content"][0]["text"])
    for answer in (text, result["structuredContent"]):
        answer["meta"].pop("trace_id")
        answer["meta"].pop("latency_ms")
    return {**result, "content": [{**result["content"][0], "text": text}]}


def test_a_call_the_direct_path_leaves_gets_the_same_answer_the_sdks_way(raw_server):
    call = {"name": "exec", "arguments": {"op": "onto.project.list"}}
    direct = raw_server.request(41, "tools/call", call)
    whole_way = raw_server.request(42, "tools/call", {**call, "x-unread": 1})  # a key the schema ignores: not plain
    assert _steady(direct["result"]) == _steady(whole_way["result"]) and not direct["result"]["isError"]
    refused = raw_server.request(43, "tools/call", {"name": 7, "arguments": {}})
    assert refused["error"]["code"] == INVALID_PARAMS


def test_a_call_before_the_handshake_is_refused_as_before(db):
    from mcp_server_driver import RawStdioServer

    server = RawStdioServer(db)
    try:
        refused = server.request(1, "tools/call", {"name": "exec", "arguments": {"op": "onto.project.list"}})
        assert refused["error"]["code"] == INVALID_PARAMS
    finally:
        assert server.stop() == 0
