"""Fixtures for the upstream tests: the reference servers, installed once per session, and a config per test."""

from __future__ import annotations

import pytest

import upstream_servers


@pytest.fixture(scope="session")
def modules():
    return upstream_servers.ensure_servers()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def db(tmp_path):
    return tmp_path / "workspace.db"


@pytest.fixture
def config(tmp_path, modules):
    """An mcpServers file with the memory and everything servers (stdio), and a filesystem server confined to tmp_path/files."""
    files = tmp_path / "files"
    files.mkdir()
    (files / "hello.txt").write_text("hello from the filesystem server\n", encoding="utf-8")
    return upstream_servers.write_config(tmp_path / "servers.json", {
        "memory": upstream_servers.memory(modules, tmp_path),
        "everything": upstream_servers.everything(modules),
        "files": upstream_servers.filesystem(modules, files),
    })
