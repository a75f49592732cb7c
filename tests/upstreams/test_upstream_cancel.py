"""A client that cancels its call through `opgate serve` cancels the upstream's work too, against the real everything server.

The call ran on in opgate's worker until the upstream answered or the
timeout (30 s) passed: a cancelled slow write went on, and the call log
shows its whole length. A batch's read steps run on pool threads, which
did not hear of the cancellation: they ran on the same way.
"""

from __future__ import annotations

import time

import anyio
import pytest
from mcp import Client

import upstream_servers as us
from opgate.core import Gateway
from test_upstream_serve import serve

pytestmark = pytest.mark.anyio


SLOW = {"op": "everything.long_running_operation.trigger", "args": {"duration": 20, "steps": 20}}
CALLS = {"exec": ("exec", SLOW), "batch": ("batch", {"steps": [{"tool": "exec", "args": SLOW}, {"tool": "exec", "args": SLOW}]})}


@pytest.mark.parametrize("tool", sorted(CALLS))
async def test_a_cancelled_call_stops_its_upstream_request(tmp_path, modules, tool):
    config = us.write_config(tmp_path / "servers.json", {"everything": us.everything(modules)})
    db = tmp_path / "w.db"
    async with Client(serve(config, db), mode="legacy", read_timeout_seconds=60) as client:
        assert (await client.call_tool("exec", {"op": "everything.echo", "args": {"message": "warm"}})).is_error is False
        started = time.monotonic()
        with anyio.move_on_after(1.0):
            await client.call_tool(*CALLS[tool])
        assert time.monotonic() - started < 5
        after = await client.call_tool("exec", {"op": "everything.echo", "args": {"message": "after"}})
        assert after.is_error is False
    gateway = Gateway(db_path=db)
    try:
        calls = [c for c in gateway.recent_calls(20) if c["op"] == "everything.long_running_operation.trigger"]
        assert len(calls) == (2 if tool == "batch" else 1), f"no entry for a cancelled call: it was still running when the server exited ({calls})"
        for call in calls:
            assert call["duration_ms"] < 8_000, f"the upstream call ran on for {call['duration_ms']} ms after the client cancelled it"
            assert call["ok"] is False
    finally:
        gateway.close()
