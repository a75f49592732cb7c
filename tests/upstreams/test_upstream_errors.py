"""JSON-RPC errors an upstream answers with are its answer, not a lost connection."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams

HERE = Path(__file__).parent


def test_a_server_error_with_code_32000_is_reported_as_its_answer_and_the_server_kept(tmp_path, db):
    """-32000 is the SDK's code for a closed connection and any server's first implementation-defined code: an upstream's
    own -32000 error was reported as 'closed the connection', and its healthy process was killed and started again."""
    config = us.write_config(tmp_path / "servers.json", {"erring": {"command": sys.executable, "args": [str(HERE / "erring_server.py")], "env": {"PYTHONPATH": os.environ.get("PYTHONPATH", "")}}})
    gateway = Gateway(db_path=db, upstreams=Upstreams.from_files([config]), allow_write=True)
    try:
        before = gateway.exec("erring.whoami", {})
        assert before["ok"], before
        failed = gateway.exec("erring.fail", {"code": -32000})
        error = failed["error"]
        assert error["code"] == "INTERNAL" and "the widget is jammed" in error["message"] and "(error -32000)" in error["message"], error
        assert "closed the connection" not in error["message"]
        after = gateway.exec("erring.whoami", {})
        assert after["ok"] and after["result"] == before["result"], "the same server process answers"
    finally:
        gateway.close()
