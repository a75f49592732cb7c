"""Collections run against a real demo workspace in a temp folder."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.core import Gateway

REPO = Path(__file__).resolve().parents[2]
DEMO = REPO / "fixtures" / "collections" / "demo"
PROJECT = "10000000-0000-4000-8000-000000000001"


@pytest.fixture
def workspace(tmp_path) -> Path:
    return tmp_path / "ws.db"


@pytest.fixture
def gateway(workspace):
    gw = Gateway(db_path=workspace)
    yield gw
    gw.close()


def write(folder: Path, files: dict[str, str]) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder
