"""Gateways on real SQLite files in a temp dir (the ids and helpers the tests import are in repl_helpers)."""

from __future__ import annotations

import pytest

from opgate.core import Gateway


@pytest.fixture(scope="module")
def shared_gateway(tmp_path_factory) -> Gateway:
    """One demo workspace for tests that only read."""
    gateway = Gateway(db_path=tmp_path_factory.mktemp("repl") / "w.db")
    yield gateway
    gateway.close()


@pytest.fixture
def gateway(tmp_path) -> Gateway:
    gateway = Gateway(db_path=tmp_path / "w.db")
    yield gateway
    gateway.close()
