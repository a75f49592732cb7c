"""Fixtures for the MCP server tests: real ``opgate serve`` subprocesses on demo workspaces in temp folders."""

from __future__ import annotations

import json

import pytest

from mcp_server_driver import HttpServer, RawStdioServer


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path):
    """A fresh workspace: the server loads the demo into it on first use."""
    return tmp_path / "workspace.db"


@pytest.fixture
def raw_server(db):
    """``opgate serve`` over stdio, spoken to line by line, initialized; it must end cleanly when its input closes."""
    server = RawStdioServer(db)
    assert server.initialize()["result"]["serverInfo"]["name"] == "opgate"
    yield server
    assert server.stop() == 0, "the server ends cleanly when its input closes"
    # Standard output is the protocol: nothing else (logs, warnings) may ever appear on it.
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in server.stdout_lines)


@pytest.fixture(scope="session")
def http_server(tmp_path_factory):
    """One HTTP server for every test, with writes allowed and one extra browser origin allowed.

    Tests that write through it touch tasks no other test reads (see test_writes.py)."""
    server = HttpServer(tmp_path_factory.mktemp("http") / "workspace.db", "--allow-write", "--allow-origin", "https://app.example").start()
    yield server
    server.stop()
