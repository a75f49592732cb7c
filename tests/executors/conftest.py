"""Gateways over real tool folders, closed after each test."""

from __future__ import annotations

import pytest

from opgate.core import Gateway
from opgate.core.settings import GatewaySettings


@pytest.fixture
def tools(tmp_path):
    root = tmp_path / "tools"
    root.mkdir()
    return root


@pytest.fixture
def gateway_over(tmp_path):
    """``gateway_over(tools, allow_write=..., hard_timeout_s=...)``: a gateway on a private workspace."""
    opened: list[Gateway] = []

    def make(root, *, hard_timeout_s: float = 30.0, **options):
        settings = GatewaySettings(hard_timeout_s=hard_timeout_s)
        gateway = Gateway.from_catalogs([root], db_path=tmp_path / "ws.db", settings=settings, **options)
        assert not [p for p in gateway.registry.problems if p.severity == "error"], gateway.registry.problems
        opened.append(gateway)
        return gateway

    yield make
    for gateway in opened:
        gateway.close()
