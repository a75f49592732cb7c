"""Help says what a write's dry-run gives, as its executor does it: a diff, the tool's rehearsal, or the request unsent.

Every write's help once said "dry_run=true previews the diff", also for HTTP
and MCP ops and handlers that cannot rehearse, whose dry-run shows what
would be sent and no diff at all.
"""

from __future__ import annotations

from pathlib import Path

from tool_folders import WRITER, write_tool

from opgate.core import Gateway

LIBRARY_DOCUMENT = Path(__file__).resolve().parents[1] / "http" / "library_openapi.yaml"
HANDLER = "def execute(context):\n    return {'ok': True, 'data': context.args}\n"


def _write_note(gateway: Gateway, op: str) -> str:
    notes = [n for n in gateway.help(op)["notes"] if n.startswith("Writes:")]
    assert len(notes) == 1, gateway.help(op)
    return notes[0]


def test_each_executor_s_dry_run_is_named_in_help(tools, gateway_over, tmp_path):
    write_tool(tools, "rehearses", HANDLER, supportsDryRun=True, **WRITER)
    write_tool(tools, "sends", HANDLER, **WRITER)
    gateway = gateway_over(tools)
    assert "has the tool rehearse the call" in _write_note(gateway, "tools.rehearses")
    assert gateway.exec("tools.rehearses", {"value": "x"}, dry_run=True)["meta"]["dry_run_kind"] == "native"
    assert "shows the request that would be sent, and sends nothing" in _write_note(gateway, "tools.sends")
    assert gateway.exec("tools.sends", {"value": "x"}, dry_run=True)["meta"]["dry_run_kind"] == "preview"

    http = Gateway.from_catalogs([f"lib={LIBRARY_DOCUMENT}"], db_path=tmp_path / "http.db", call_log=False)
    try:
        assert "shows the request that would be sent, and sends nothing" in _write_note(http, "lib.item.create")
        assert "diff" not in _write_note(http, "lib.item.create")
    finally:
        http.close()

    builtin = Gateway(db_path=tmp_path / "builtin.db", call_log=False)
    try:
        assert "previews the diff" in _write_note(builtin, "onto.task.create")
    finally:
        builtin.close()
