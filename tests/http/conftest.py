"""Fixtures for the HTTP executor tests: a scripted loopback server, and Prism serving the real documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from loopback_server import LoopbackServer
from opgate.core import Gateway
from opgate.core.config import AuthConfig, HttpUpstreamConfig, OpgateConfig

HERE = Path(__file__).resolve().parent
LOOPBACK_DOCUMENT = HERE / "loopback_openapi.json"
API_KEY = "loopback-secret-key-42"


@pytest.fixture
def loopback():
    server = LoopbackServer().start()
    yield server
    server.stop()


@pytest.fixture
def loopback_gateway(loopback, tmp_path, monkeypatch):
    """A gateway whose ``items`` upstream is the loopback server, with an API key from the environment."""
    monkeypatch.setenv("ITEMS_API_KEY", API_KEY)
    gateways = []

    def make(**upstream_options):
        options = {"base_url": loopback.url, "timeout_s": 2.0, "retries": 2, "auth": AuthConfig(api_key_env="ITEMS_API_KEY"), **upstream_options}
        upstream = HttpUpstreamConfig(name="items", openapi=LOOPBACK_DOCUMENT, **options)
        gateway = Gateway.from_catalogs([], config=OpgateConfig(http_upstreams={"items": upstream}), db_path=tmp_path / "w.db", allow_write=True, call_log=False)
        gateways.append(gateway)
        return gateway

    yield make
    for gateway in gateways:
        gateway.close()
