"""Answers that are JSON-RPC but not MCP results, against a hand-written stdio server (hostile_server.py's ``verbatim``).

The SDK's check of a result raised pydantic's dump ("13 validation errors
for CallToolResult ... input_value=..."), quoting the answer, and the call
was reported retryable although the same call gets the same answer. Each
now fails in one line saying where the answer went wrong, not retryable,
and the server's next answer is read as before.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).resolve().parent
VERBATIM = {"name": "verbatim", "description": "Answers what it is given.", "inputSchema": {"type": "object"}, "annotations": {"readOnlyHint": True}}


@pytest.fixture
def gateway(tmp_path):
    (tmp_path / "tools.json").write_text(json.dumps([VERBATIM]), encoding="utf-8")
    server = {"command": sys.executable, "args": [str(HERE / "hostile_server.py")], "env": {"HOSTILE_TOOLS": str(tmp_path / "tools.json")}}
    config = us.write_config(tmp_path / "servers.json", {"h": server})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True)
    yield gateway
    gateway.close()


@pytest.mark.parametrize(("result", "said"), [
    ({}, "content: Field required"),
    ({"content": "hi"}, "content: Input should be a valid list"),
    ({"content": [{"type": "foo", "x": 1}]}, "content.0"),
    ({"content": [], "structuredContent": [1, 2]}, "structuredContent: Input should be a valid dictionary"),
    (None, "result: Input should be a valid dictionary"),
    ([1, 2], "result: Input should be a valid dictionary"),
], ids=["no-content", "content-text", "unknown-block", "structured-list", "null", "list"])
def test_a_result_that_is_not_an_mcp_result_fails_in_one_line_not_retryable(gateway, result, said):
    answer = gateway.exec("h.verbatim", {"result": result})
    error = answer["error"]
    assert error["code"] == "INTERNAL" and not error["details"].get("retryable"), error
    assert "could not read the server's answer" in error["message"] and said in error["message"], error
    assert "validation error" not in error["message"] and "input_value" not in error["message"] and "\n" not in error["message"], error
    fine = gateway.exec("h.verbatim", {"result": {"content": [{"type": "text", "text": "fine"}]}})
    assert fine["ok"] and fine["result"] == "fine", fine
