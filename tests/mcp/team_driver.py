"""Tokens made with the real ``opgate token`` command, and the SDK's client sending one as a bearer header."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from mcp_server_driver import CALL_TIMEOUT, child_env


def opgate(db: Path, *words: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), *words], capture_output=True, text=True, timeout=60, env=os.environ | child_env())


def make_token(db: Path, name: str, role: str) -> str:
    done = opgate(db, "token", "create", "--name", name, "--role", role, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["token"]


def revoke_token(db: Path, name: str) -> None:
    done = opgate(db, "token", "revoke", name)
    assert done.returncode == 0, done.stderr


@asynccontextmanager
async def _with_header(token: str | None, url: str):
    headers = {"Authorization": f"Bearer {token}"} if token else None
    async with create_mcp_http_client(headers=headers) as http:
        async with streamable_http_client(url, http_client=http) as streams:
            yield streams


@asynccontextmanager
async def connect_as(url: str, token: str | None, era: str = "2026-07-28", **options: Any) -> AsyncIterator[Client]:
    """The SDK's client on ``url``, sending ``Authorization: Bearer token`` with every request."""
    mode = "legacy" if era == "legacy" else era
    async with Client(_with_header(token, url), mode=mode, read_timeout_seconds=CALL_TIMEOUT, **options) as client:
        yield client


def logged_call(db: Path, trace_id: str, *, timeout: float = 10.0) -> dict | None:
    """The call-log entry of one call, waiting for the server's log writer (it commits every 50 ms)."""
    from opgate.core.store import SQLiteStore

    deadline = time.monotonic() + timeout
    with SQLiteStore(db) as store:
        while True:
            with store.read() as tx:
                found = [entry for entry in tx.recent_calls(500) if entry["trace_id"] == trace_id]
            if found or time.monotonic() > deadline:
                assert len(found) <= 1
                return found[0] if found else None
            time.sleep(0.1)
