"""Fixtures for the store tests: real SQLite files in tmp_path, no mocks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The tests import store_testing by name; under --import-mode=importlib this
# folder is not on sys.path by itself.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

from store_testing import SMALL_WORKSPACE  # noqa: E402

from opgate.core.store import SQLiteStore, load_demo  # noqa: E402


@pytest.fixture
def store(tmp_path: Path):
    """An empty, migrated store."""
    with SQLiteStore(tmp_path / "workspace.db") as opened:
        yield opened


@pytest.fixture
def ws(store: SQLiteStore) -> SQLiteStore:
    """A store holding tests/store/small_workspace.json."""
    load_demo(store, SMALL_WORKSPACE)
    return store
