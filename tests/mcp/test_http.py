"""The server over streamable HTTP on loopback, driven by the SDK's client; one server for the module."""

from __future__ import annotations

import anyio
import httpx
import pytest

from mcp_checks import CHECKS
from mcp_server_driver import CALL_TIMEOUT, ERAS, connect

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "origin-check", "version": "1"}}}
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


@pytest.mark.anyio
@pytest.mark.parametrize("era", ERAS)
@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__)
async def test_check_over_http(http_server, check, era):
    with anyio.fail_after(CALL_TIMEOUT):
        async with connect(http_server.url, era) as client:
            await check(client)


def test_it_listens_on_loopback_only_by_default(http_server):
    assert http_server.url.startswith("http://127.0.0.1:") and http_server.url.endswith("/mcp")


@pytest.mark.parametrize(
    ("origin", "status"),
    [
        (None, 200),
        ("http://localhost:5173", 200),
        ("http://127.0.0.1:8080", 200),
        ("https://app.example", 200),  # allowed with --allow-origin
        ("http://evil.example", 403),
        ("http://localhost.evil.example", 403),
        ("null", 403),
    ],
)
def test_browser_origins_are_checked(http_server, origin, status):
    headers = HEADERS | ({"Origin": origin} if origin else {})
    response = httpx.post(http_server.url, json=INITIALIZE, headers=headers, timeout=CALL_TIMEOUT)
    assert response.status_code == status, response.text


def test_a_foreign_host_header_is_refused(http_server):
    headers = HEADERS | {"Host": "attacker.example"}
    response = httpx.post(http_server.url, json=INITIALIZE, headers=headers, timeout=CALL_TIMEOUT)
    assert response.status_code == 421
