"""`opgate serve --allow-write` asks the person through MCP elicitation before an HTTP upstream's DELETE: the message
shows the request that would be sent (it read "no changes to stored data", which is only true of the store)."""

from __future__ import annotations

import json

import mcp_types as types
import pytest
from http_testing import AUTH_TOKEN
from mcp import Client
from test_prism_front_ends import counts, exec_, serve

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_confirming_an_http_delete_shows_the_request_that_would_be_sent(prism_servers, prism_config, tmp_path):
    messages: list[str] = []

    async def elicit(context, params):
        messages.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": True})

    async with Client(serve(prism_config({}), tmp_path / "serve.db"), mode="legacy", read_timeout_seconds=60, elicitation_callback=elicit) as client:
        ops = json.dumps((await client.call_tool("help", {"path": "pets"})).structured_content)
        assert "pets.pet.delete" in ops, ops[:2000]
        before = counts(prism_servers)["pets"]
        deleted = await exec_(client, "pets.pet.delete", {"id": 7})
        assert deleted["ok"], deleted
        assert counts(prism_servers)["pets"] == before + 1
    [message] = messages
    assert "no changes to stored data" not in message, message
    assert "It would send:" in message and f"DELETE {prism_servers['pets'].url}/pets/7" in message, message
    assert AUTH_TOKEN not in message
