"""Fixtures for the store tests: real SQLite files in tmp_path and real PostgreSQL databases, no mocks."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

# The tests import store_testing by name; under --import-mode=importlib this
# folder is not on sys.path by itself.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

from store_testing import SMALL_WORKSPACE  # noqa: E402

from opgate.core.store import OntologyStore, load_demo  # noqa: E402
from opgate.core.store._locate import connect_store  # noqa: E402


@pytest.fixture
def store(tmp_path: Path, new_workspace):
    """An empty, migrated store, on each backend."""
    with connect_store(new_workspace(tmp_path)) as opened:
        yield opened


@pytest.fixture
def ws(store: OntologyStore) -> OntologyStore:
    """A store holding tests/store/small_workspace.json."""
    load_demo(store, SMALL_WORKSPACE)
    return store
