"""A tool name two catalogues share (two MCP servers' ``echo``, two tool folders' ``echo``) cannot pick an op: exec says so.

It once answered "There is no op 'echo'" with no suggestions: the tool's ops
were left out of the suggestions whenever the visible ops were passed in,
which is always.
"""

from __future__ import annotations

from tool_folders import write_tool

from opgate.core import Gateway

HANDLER = "def execute(context):\n    return {'ok': True, 'data': context.meta['op']}\n"


def test_a_bare_tool_name_of_two_ops_names_both(tmp_path):
    for namespace in ("alpha", "beta"):
        write_tool(tmp_path / namespace, "echo", HANDLER)
    write_tool(tmp_path / "gamma", "shout", HANDLER)
    gateway = Gateway.from_catalogs([tmp_path / "alpha", tmp_path / "beta", tmp_path / "gamma"], db_path=tmp_path / "w.db", call_log=False)
    try:
        envelope = gateway.exec("echo", {})
        assert envelope["error"]["code"] == "NOT_FOUND"
        assert envelope["error"]["details"]["suggestions"] == ["alpha.echo", "beta.echo"]
        assert "'echo' is the tool name of 2 ops (alpha.echo, beta.echo)" in envelope["error"]["message"]
        assert gateway.exec("beta.echo", {})["result"] == "beta.echo"
        assert gateway.exec("shout", {})["result"] == "gamma.shout"  # a tool name of one op still runs it
        assert gateway.exec("echoo", {})["error"]["details"]["suggestions"][:2] == ["alpha.echo", "beta.echo"]
    finally:
        gateway.close()
