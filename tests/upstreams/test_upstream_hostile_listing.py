"""A server's hostile tools/list, against a hand-written stdio server (hostile_server.py) that sends what no SDK server would.

One tool that is not an MCP tool (a schema whose type is not "object", no
inputSchema, a title that is a list) made the SDK refuse the whole listing:
every other tool of the server was lost, and the reason was a pydantic dump.
An answer nested deeper than the SDK's JSON reader allows was dropped, and
the listing waited out its timeout saying only that it had not answered.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).resolve().parent


def _obj(props: dict | None = None, **more) -> dict:
    return {"type": "object", "properties": props or {}, **more}


def _gateway(tmp_path, tools: list[dict]) -> Gateway:
    (tmp_path / "tools.json").write_text(json.dumps(tools), encoding="utf-8")
    server = {"command": sys.executable, "args": [str(HERE / "hostile_server.py")], "env": {"HOSTILE_TOOLS": str(tmp_path / "tools.json")}}
    config = us.write_config(tmp_path / "servers.json", {"hostile": server})
    return Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True)


def test_tools_that_are_not_mcp_tools_are_refused_and_the_others_listed(tmp_path):
    gateway = _gateway(tmp_path, [
        {"name": "good", "description": "Fine.", "inputSchema": _obj({"q": {"type": "string"}})},
        {"name": "notobj", "description": "A string schema.", "inputSchema": {"type": "string"}},
        {"name": "noschema", "description": "No schema at all."},
        {"name": "badtitle", "description": "Title a list.", "inputSchema": _obj(), "annotations": {"title": ["x"]}},
        {"name": "also_good", "description": "Fine too.", "inputSchema": _obj()},
    ])
    try:
        ops = sorted(r.op for r in gateway.registry if r.op.startswith("hostile."))
        assert ops == ["hostile.also_good", "hostile.good"], ops
        refused = {p.tool: p.message for p in gateway.registry.problems if "is not offered" in p.message}
        assert set(refused) == {"noschema", "badtitle"}, gateway.registry.problems
        # A schema that is not an object passes MCP's version-free Tool; the catalogue refuses it, saying so.
        assert any(p.tool == "notobj" and "must be an object" in p.message for p in gateway.registry.problems)
        assert "inputSchema" in refused["noschema"] and "pydantic" not in " ".join(refused.values())
        answer = gateway.exec("hostile.good", {"q": "hi"})
        assert answer["ok"] and json.loads(answer["result"]) == {"q": "hi"}, answer
    finally:
        gateway.close()


def test_a_second_tool_under_a_name_already_listed_is_refused_not_offered_as_name_2(tmp_path):
    """It became hostile.dup_2, checked against its own schema and sent to the server as 'dup', which ran the first."""
    gateway = _gateway(tmp_path, [
        {"name": "dup", "description": "The first.", "inputSchema": _obj({"q": {"type": "string"}})},
        {"name": "dup", "description": "The second.", "inputSchema": _obj({"n": {"type": "integer"}})},
    ])
    try:
        ops = [r.op for r in gateway.registry if r.op.startswith("hostile.")]
        assert ops == ["hostile.dup"], ops
        assert gateway.help("hostile.dup")["summary"] == "The first.", gateway.help("hostile.dup")
        refused = [p.message for p in gateway.registry.problems if p.tool == "dup"]
        assert any("is not offered" in m and "by this name already" in m for m in refused), gateway.registry.problems
    finally:
        gateway.close()


def test_an_answer_too_deep_to_read_fails_the_listing_at_once_saying_why(tmp_path):
    deep: dict = {}
    for _ in range(300):  # within Python's JSON reader, past the SDK's
        deep = _obj({"x": deep})
    gateway = _gateway(tmp_path, [{"name": "deep", "description": "Deep.", "inputSchema": deep}])
    try:
        started = time.monotonic()
        root = gateway.help("")
        assert time.monotonic() - started < 10, "the listing waited for an answer that had been dropped"
        (down,) = root["unavailable"]
        assert "could not read the server's answer" in down["why"] and "recursion" in down["why"], down
    finally:
        gateway.close()


def test_an_unreadable_answer_deeper_than_python_reads_still_names_its_request():
    from opgate.core.executors.mcp._stdio import _parsed

    line = b'{"jsonrpc": "2.0", "id": 7, "result": {"tools": ' + b"[" * 100_000 + b"]" * 100_000 + b"}}"
    message = _parsed(line)
    assert message.message.id == 7 and "could not read" in message.message.error.message
    assert isinstance(_parsed(b'{"jsonrpc": "2.0", "method": "notifications/x", "params": ' + b"[" * 1000 + b"]" * 1000 + b"}"), Exception)


def test_help_of_a_tool_with_twenty_thousand_arguments_is_bounded_and_says_so(tmp_path):
    wide = _obj({f"p{i}": {"type": "string", "description": "a parameter"} for i in range(20_000)})
    gateway = _gateway(tmp_path, [{"name": "wide", "description": "Wide.", "inputSchema": wide}, {"name": "small", "description": "Small.", "inputSchema": _obj({"q": {"type": "string"}})}])
    try:
        from opgate.core.help._service import OP_HELP_CHAR_LIMIT

        for options in ({}, {"format": "full", "include_schemas": True}):
            answer = gateway.help("hostile.wide", **options)
            assert answer["ok"] and len(json.dumps(answer, ensure_ascii=False)) <= OP_HELP_CHAR_LIMIT * 1.05, len(json.dumps(answer))
            cut = {c["path"]: c for c in answer["truncated"]}
            assert cut["usage"]["total_chars"] > 100_000 and "args" in cut, answer["truncated"]
        assert len(gateway.help("hostile.wide")["args"]) > 100, "the arguments were cut before the usage line"
        assert "truncated" not in gateway.help("hostile.small")
    finally:
        gateway.close()
