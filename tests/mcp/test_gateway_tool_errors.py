"""Through the SDK's client and a real ``opgate serve``: a batch step without a tool and a search limit out of
range are VALIDATION_ERRORs naming the step's path and the bound, as gw.batch and gw.search say them."""

from __future__ import annotations

import anyio
import pytest

from mcp_checks import answer
from mcp_server_driver import CALL_TIMEOUT, connect, stdio_params

pytestmark = pytest.mark.anyio


async def test_batch_step_shape_and_search_limit_over_stdio(db):
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db)) as client:
            steps = answer(await client.call_tool("batch", {"steps": [{"exec": {"op": "onto.task.list"}}, {"tool": "help", "args": {}}], "on_error": "continue"}))
            first, second = steps if isinstance(steps, list) else steps["results"]
            error = first["error"]
            assert error["code"] == "VALIDATION_ERROR" and "None" not in error["message"], error
            assert {row["field"] for row in error["details"]["field_errors"]} == {"args.steps[0].tool", "args.steps[0].exec"}
            assert second["ok"]
            for limit in (0, 51):
                refused = answer(await client.call_tool("search", {"query": "list tasks", "limit": limit}))
                assert not refused["ok"] and refused["error"]["code"] == "VALIDATION_ERROR", refused
            page = answer(await client.call_tool("search", {"query": "project document task goal risk plan list get create update delete", "limit": 50}))
            assert len(page["results"]) == 50 and page["next_cursor"]
