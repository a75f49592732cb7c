"""The server over stdio, driven by the SDK's client: a real ``opgate serve`` subprocess per test."""

from __future__ import annotations

import anyio
import pytest

from mcp_checks import CHECKS
from mcp_server_driver import CALL_TIMEOUT, ERAS, connect, stdio_params

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("era", ERAS)
async def test_every_check_passes_over_stdio(db, era):
    # One server for all the checks: starting one costs more than the checks.
    with anyio.fail_after(CALL_TIMEOUT * 2):
        async with connect(stdio_params(db), era) as client:
            for check in CHECKS:
                await check(client)

