"""An upstream tool's progress reaches the client of `opgate serve` that asked for it, against the real everything server.

Its long-running operation reports each step with ``notifications/progress``;
opgate once kept those to itself, so a client watching a slow call saw
nothing until the answer. Over ``serve --http`` the reports were sent with
the call's request id, which the SDK's transport routes to that request's
event stream.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import mcp_types as types
import pytest
from mcp import Client

import upstream_servers as us
from test_upstream_serve import serve

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "mcp"))
from mcp_server_driver import HttpServer

pytestmark = pytest.mark.anyio


async def _exec(client: Client, op: str, args: dict, **options) -> dict:
    result = await client.call_tool("exec", {"op": op, "args": args}, **options)
    return result.structured_content if result.structured_content is not None else json.loads(result.content[0].text)


async def _batch(client: Client, steps: list[dict], **options) -> dict:
    result = await client.call_tool("batch", {"steps": steps}, **options)
    return result.structured_content if result.structured_content is not None else json.loads(result.content[0].text)


async def _relays_progress(client: Client) -> None:
    reports: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        reports.append((progress, total, message))

    answer = await _exec(client, "everything.long_running_operation.trigger", {"duration": 1, "steps": 4}, progress_callback=on_progress)
    assert answer["ok"], answer
    assert [(p, t) for p, t, _ in reports] == [(1, 4), (2, 4), (3, 4), (4, 4)], reports
    # A client that asked for no progress gets the answer alone.
    reports.clear()
    quiet = await _exec(client, "everything.long_running_operation.trigger", {"duration": 1, "steps": 2})
    assert quiet["ok"] and reports == [], reports
    # A batch's steps report under the batch's one token: the second step's progress goes on from the first's.
    step = {"tool": "exec", "args": {"op": "everything.long_running_operation.trigger", "args": {"duration": 1, "steps": 2}}}
    steps = await _batch(client, [step, step], progress_callback=on_progress)
    assert all(s["ok"] for s in steps["results"]), steps
    assert [p for p, _, _ in reports] == sorted({p for p, _, _ in reports}) and len(reports) >= 2, reports


async def test_progress_of_an_upstream_call_is_relayed_to_the_client(tmp_path, modules):
    config = us.write_config(tmp_path / "servers.json", {"everything": us.everything(modules)})
    async with Client(serve(config, tmp_path / "w.db"), mode="legacy", read_timeout_seconds=60) as client:
        await _relays_progress(client)


async def _accept(context, params):
    return types.ElicitResult(action="accept", content={"confirm": True})


@pytest.mark.parametrize("era", ["legacy", "2026-07-28"])
@pytest.mark.parametrize("shows_forms", [False, True], ids=["no-forms", "forms"])
async def test_progress_is_relayed_over_streamable_http_too(tmp_path, modules, era, shows_forms):
    """A 2026-07-28 client that shows forms over HTTP has its calls run where a confirmation can wait in the store: those lost their progress."""
    config = us.write_config(tmp_path / "servers.json", {"everything": us.everything(modules)})
    server = HttpServer(tmp_path / "w.db", "--mcp-servers", str(config)).start()
    options = {"elicitation_callback": _accept} if shows_forms else {}
    try:
        async with Client(server.url, mode=era, read_timeout_seconds=60, **options) as client:
            await _relays_progress(client)
    finally:
        server.stop()
    assert "Traceback" not in server.stderr, server.stderr
