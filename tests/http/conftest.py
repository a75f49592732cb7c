"""Fixtures for the HTTP executor tests: a scripted loopback server, and Prism serving the real documents."""

from __future__ import annotations

from pathlib import Path

import pytest

from http_testing import ACCOUNT_SID, API_KEY, AUTH_TOKEN, LOOPBACK_DOCUMENT, PETSTORE_DOCUMENT, TWILIO_DOCUMENT
from loopback_server import LoopbackServer
from opgate.core import Gateway
from opgate.core.config import AuthConfig, HttpUpstreamConfig, OpgateConfig

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


def _document(path: Path) -> Path:
    if not path.exists():
        pytest.fail(f"shared test data is missing: {path}")
    return path


@pytest.fixture(scope="session")
def prism_servers(tmp_path_factory):
    """Prism on the Twilio API v2010 and on the petstore, started together (each takes seconds)."""
    from prism import Prism, prism_bin

    bin_dir = prism_bin()
    logs = tmp_path_factory.mktemp("prism")
    servers = {
        "twilio": Prism(_document(TWILIO_DOCUMENT), logs / "twilio.log"),
        "pets": Prism(_document(PETSTORE_DOCUMENT), logs / "pets.log"),
    }
    try:
        for server in servers.values():
            server.start(bin_dir)
        yield servers
    finally:
        for server in servers.values():
            server.stop()


@pytest.fixture
def prism_config(prism_servers, tmp_path, monkeypatch):
    """An opgate.toml for both upstreams, and the credentials in the environment."""
    monkeypatch.setenv("TWILIO_ACCOUNT_SID", ACCOUNT_SID)
    monkeypatch.setenv("TWILIO_AUTH_TOKEN", AUTH_TOKEN)

    def write(pets_headers: dict[str, str] | None = None) -> Path:
        headers = ", ".join(f'"{k}" = "{v}"' for k, v in (pets_headers or {}).items())
        path = tmp_path / "opgate.toml"
        path.write_text(f"""
[upstreams.twilio]
openapi = "{TWILIO_DOCUMENT}"
base_url = "{prism_servers['twilio'].url}"

[upstreams.twilio.auth]
username_env = "TWILIO_ACCOUNT_SID"
password_env = "TWILIO_AUTH_TOKEN"

[upstreams.pets]
openapi = "{PETSTORE_DOCUMENT}"
base_url = "{prism_servers['pets'].url}"
headers = {{ {headers} }}
""")
        return path

    return write
