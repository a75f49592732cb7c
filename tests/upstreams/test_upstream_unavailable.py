"""An op under an upstream that failed to start: exec and help say the upstream is unavailable and why (retryable),
not NOT_FOUND "There is no op"."""

from __future__ import annotations

import json

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams
from test_upstream_cli import run_json

SECRET = "hunter2-secret-value"


def _config(tmp_path, modules):
    # node prints "Error: Cannot find module '<path>'" and exits; the env value is configured, so it is a secret
    missing = tmp_path / "gone" / f"server-{SECRET}.js"
    return us.write_config(tmp_path / "servers.json", {
        "broken": {"command": us.node(), "args": [str(missing)], "env": {"TOKEN": SECRET}},
        "memory": us.memory(modules, tmp_path),
    })


def test_exec_and_help_of_an_upstream_that_failed_to_start_say_it_is_unavailable_and_why(tmp_path, db, modules):
    gateway = Gateway(db_path=db, upstreams=Upstreams.from_files([_config(tmp_path, modules)]))
    try:
        answer = gateway.exec("broken.create_entities", {})
        error = answer["error"]
        assert error["code"] != "NOT_FOUND" and error["details"]["retryable"] is True and error["details"]["upstream"] == "broken", error
        assert "upstream 'broken' is unavailable" in error["message"] and "Cannot find module" in error["message"], error
        helped = gateway.help("broken")
        assert helped["error"]["code"] == "UPSTREAM_UNAVAILABLE" and helped["error"]["retryable"] is True, helped
        assert "Cannot find module" in helped["error"]["message"], helped
        assert SECRET not in json.dumps([answer, helped])
        # An unknown op elsewhere is still NOT_FOUND, and the upstream that answered works
        assert gateway.exec("nothing.here", {})["error"]["code"] == "NOT_FOUND"
        assert gateway.help("nothing")["error"]["code"] == "UNKNOWN_PATH"
        assert gateway.exec("memory.graph.read", {})["ok"] or gateway.exec("read_graph", {})["ok"]
    finally:
        gateway.close()


def test_exec_of_an_op_under_a_failed_upstream_from_the_command_line(tmp_path, db, modules):
    code, answer = run_json("--mcp-servers", str(_config(tmp_path, modules)), "--db", str(db), "exec", "broken.anything")
    assert code != 0 and "upstream 'broken' is unavailable" in answer["error"]["message"] and "Cannot find module" in answer["error"]["message"], answer
    assert answer["error"]["details"]["retryable"] is True and SECRET not in json.dumps(answer)
