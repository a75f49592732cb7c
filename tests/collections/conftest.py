"""Collections run against a real demo workspace in a temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.core import Gateway


@pytest.fixture
def workspace(tmp_path) -> Path:
    return tmp_path / "ws.db"


@pytest.fixture
def gateway(workspace):
    gw = Gateway(db_path=workspace)
    yield gw
    gw.close()
