"""Explorer fixtures: a real Gateway on a fresh SQLite file per test; pilot tests run on asyncio via anyio."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.core import Gateway
from opgate.tui import make_app


@pytest.fixture
def anyio_backend() -> str:
    """Pilot tests are ``async``: anyio's pytest plugin (anyio comes with httpx) runs them on asyncio."""
    return "asyncio"


@pytest.fixture
def gateway(tmp_path: Path) -> Gateway:
    gw = Gateway(db_path=tmp_path / "w.db")
    yield gw
    gw.close()


@pytest.fixture
def app(gateway: Gateway):
    return make_app(gateway, "built-in catalogue")
