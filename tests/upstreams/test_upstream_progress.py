"""An upstream tool's progress reaches the client of `opgate serve` that asked for it, against the real everything server.

Its long-running operation reports each step with ``notifications/progress``;
opgate once kept those to itself, so a client watching a slow call saw
nothing until the answer.
"""

from __future__ import annotations

import json

import pytest
from mcp import Client

import upstream_servers as us
from test_upstream_serve import serve

pytestmark = pytest.mark.anyio


async def _exec(client: Client, op: str, args: dict, **options) -> dict:
    result = await client.call_tool("exec", {"op": op, "args": args}, **options)
    return result.structured_content if result.structured_content is not None else json.loads(result.content[0].text)


async def test_progress_of_an_upstream_call_is_relayed_to_the_client(tmp_path, modules):
    config = us.write_config(tmp_path / "servers.json", {"everything": us.everything(modules)})
    reports: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reports.append((progress, total, message))

    async with Client(serve(config, tmp_path / "w.db"), mode="legacy", read_timeout_seconds=60) as client:
        answer = await _exec(client, "everything.long_running_operation.trigger", {"duration": 1, "steps": 4}, progress_callback=on_progress)
        assert answer["ok"], answer
        assert [(p, t) for p, t, _ in reports] == [(1, 4), (2, 4), (3, 4), (4, 4)], reports
        # A client that asked for no progress gets the answer alone.
        reports.clear()
        quiet = await _exec(client, "everything.long_running_operation.trigger", {"duration": 1, "steps": 2})
        assert quiet["ok"] and reports == [], reports
