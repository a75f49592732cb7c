"""An upstream tool whose answer breaks its own declared output schema, against the hand-written stdio server.

The SDK client refuses such an answer with a plain RuntimeError; opgate
reported it as an unexpected, retryable failure, inviting an agent to send
the same call again to the same broken tool.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).resolve().parent
SHAPED = {
    "name": "shaped",
    "description": "Declares a count it never sends.",
    "inputSchema": {"type": "object", "properties": {"q": {"type": "string"}}},
    "outputSchema": {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]},
}


def test_an_answer_its_output_schema_refuses_is_not_retryable(tmp_path):
    (tmp_path / "tools.json").write_text(json.dumps([SHAPED]), encoding="utf-8")
    server = {"command": sys.executable, "args": [str(HERE / "hostile_server.py")], "env": {"HOSTILE_TOOLS": str(tmp_path / "tools.json")}}
    config = us.write_config(tmp_path / "servers.json", {"hostile": server})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True, call_log=False)
    try:
        error = gateway.exec("hostile.shaped", {"q": "x"})["error"]
        assert error["code"] == "INTERNAL"
        assert not error["details"].get("retryable") and error["details"]["output_schema_broken"] is True
        assert "output schema" in error["message"] and "will not help" in error["message"]
    finally:
        gateway.close()
