"""Shared fixtures: the real catalogues in ../shared/data (read in place), private folders, workspaces, and nothing left open."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

# The modules beside this file (open_resources, pg_fixtures, pg_cluster) are imported by name; under --import-mode=importlib it is not on sys.path by itself.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

# Fixtures and a hook kept in files of their own, registered here:
# every gateway, call log and PostgreSQL pool a test opens is closed by the end of the session,
from open_resources import _nothing_left_open, closed_after, pytest_runtest_protocol  # noqa: E402,F401
# and the workspace store on each backend: SQLite files, and databases in the session's PostgreSQL cluster.
from pg_fixtures import backend, fresh_workspace, new_workspace, pg_cluster  # noqa: E402,F401

REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = REPO.parent / "shared" / "data"
CATALOGS = SHARED_DATA / "catalogs"
REAL_CATALOGS = {
    "github": CATALOGS / "github_mcp_tools_list.json",
    "loom": CATALOGS / "loom_tools.json",
    "twilio": CATALOGS / "twilio_openapi_tools.json",
}


@pytest.fixture(autouse=True, scope="session")
def _private_default_workspace(tmp_path_factory):
    """A gateway made without a database uses the default workspace, and logs its calls there
    (help and search too): in tests that is one in a temp folder, never the person's own."""
    os.environ["XDG_DATA_HOME"] = str(tmp_path_factory.mktemp("xdg-data"))


def _require(path: Path) -> Path:
    if not path.exists():
        pytest.fail(f"shared test data is missing: {path}")
    return path


@pytest.fixture(params=sorted(REAL_CATALOGS))
def real_catalog(request) -> tuple[str, Path]:
    return request.param, _require(REAL_CATALOGS[request.param])


@pytest.fixture(scope="session")
def real_catalog_paths() -> dict[str, Path]:
    """Every real catalogue by name, for fixtures that load one once per module."""
    return {name: _require(path) for name, path in REAL_CATALOGS.items()}


@pytest.fixture
def github_catalog() -> Path:
    return _require(REAL_CATALOGS["github"])


@pytest.fixture
def twilio_catalog() -> Path:
    return _require(REAL_CATALOGS["twilio"])


@pytest.fixture(autouse=True, scope="session")
def _private_registry_cache(tmp_path_factory):
    """Registries built by the tests (and their subprocesses) are cached in a temp folder, never the user's."""
    import os

    os.environ["OPGATE_CACHE_DIR"] = str(tmp_path_factory.mktemp("opgate-cache"))
    yield
