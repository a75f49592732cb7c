"""Shared fixtures: paths to the real catalogues in ../shared/data, read in place."""

from __future__ import annotations

import gc
import os
import sys
import time
import weakref
from pathlib import Path

import pytest

# pg_cluster.py sits beside this file; under --import-mode=importlib it is not on sys.path by itself.
if str(Path(__file__).parent) not in sys.path:
    sys.path.insert(0, str(Path(__file__).parent))

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


# -- nothing left open ----------------------------------------------------------
# A gateway that is never closed keeps its call log's writer thread (and so the
# log and its store) alive until the interpreter exits; the log's exit hook then
# writes what is queued, and when the test's store or database is already gone
# that fails with "could not write N call log entries as the log closed". The
# product's own set of open logs names them; each is pinned to the test that
# made it (a fixture it set up included), and the session fails if any is left.

_LOG_MADE_IN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_running_test = ["collection"]  # the session's fixtures close inside the last test's teardown, before its logs are pinned


def _open_call_logs() -> set:
    from opgate.core.exec._telemetry import _OPEN

    return set(_OPEN)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = _open_call_logs()
    if _running_test[0] == "collection":
        for call_log in before:  # made by a test module's top level
            _LOG_MADE_IN.setdefault(call_log, f"collection (before {item.nodeid})")
    _running_test[0] = item.nodeid
    yield
    for call_log in _open_call_logs() - before:
        _LOG_MADE_IN.setdefault(call_log, item.nodeid)


@pytest.fixture(autouse=True, scope="session")
def _every_call_log_closed():
    """Fails the session if a gateway (its call log) opened by a test was never closed."""
    yield
    gc.collect()  # a gateway nobody holds and that never logged a call is garbage, not a leak
    # Only the logs whose exit would lose entries fail it for now: some tests still leave idle logs open
    # (test_forms, test_search, test_completer, test_concurrency, ...); see the session-12 notes.
    left = _logs_that_cannot_write()
    deadline = time.monotonic() + 2.0
    while left and time.monotonic() < deadline:  # a healthy open log writes what it holds within call_log_flush_s (0.25 s)
        time.sleep(0.05)
        left = _logs_that_cannot_write()
    if left:
        made_in = sorted(_LOG_MADE_IN.get(call_log, _running_test[0]) for call_log in left)
        pytest.fail(f"{len(left)} call log(s) left open (a Gateway never closed) that cannot write their entries; made in: " + "; ".join(made_in), pytrace=False)


def _logs_that_cannot_write() -> list:
    return [call_log for call_log in _open_call_logs() if call_log._pending or call_log._failing]


@pytest.fixture
def closed_after():
    """``closed_after(gateway)``: the gateway, closed when the test ends, passed or failed."""
    opened: list = []

    def keep(gateway):
        opened.append(gateway)
        return gateway

    yield keep
    for gateway in reversed(opened):
        gateway.close()


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
# -- the workspace store, on each backend ------------------------------------
# Store, handler and exec tests ask for ``new_workspace`` (directly or through
# their folder's ``store`` fixture) and so run once per backend: SQLite files
# in tmp_path, and databases in one PostgreSQL cluster started for the session.

BACKENDS = ("sqlite", "postgres")


@pytest.fixture(scope="session")
def pg_cluster():
    """The session's PostgreSQL cluster; a test needing it fails (never skips) if it cannot start."""
    from pg_cluster import PgCluster

    try:
        cluster = PgCluster()
    except Exception as exc:  # noqa: BLE001 - any reason PostgreSQL did not start is a failure to report
        pytest.fail(f"could not start the test PostgreSQL cluster: {exc}", pytrace=False)
    yield cluster
    cluster.stop()


@pytest.fixture(scope="session", params=BACKENDS)
def backend(request) -> str:
    return request.param


@pytest.fixture(scope="session")
def fresh_workspace(backend, request):
    """``fresh_workspace(folder, name="workspace.db", migrated=True)``: a new, empty workspace's location.

    For fixtures that live longer than a test (module scope). A file path
    under ``folder`` on SQLite (no file yet); on PostgreSQL the URL of a new
    database holding opgate's schema and no rows, or nothing at all when
    ``migrated`` is false. Pass it to ``open_store`` or ``connect_store``.
    """
    if backend == "sqlite":
        return lambda folder, name="workspace.db", migrated=True: Path(folder) / name
    cluster = request.getfixturevalue("pg_cluster")
    return lambda folder=None, name=None, migrated=True: cluster.new_database(migrated=migrated)


@pytest.fixture
def new_workspace(backend, request, fresh_workspace):
    """As :func:`fresh_workspace`, for one test: PostgreSQL databases are emptied and reused after it."""
    if backend == "sqlite":
        yield fresh_workspace
        return
    cluster = request.getfixturevalue("pg_cluster")
    lent: list[str] = []

    def make(folder=None, name=None, migrated=True) -> str:
        url = cluster.borrow() if migrated else cluster.new_database(migrated=False)
        lent.append(url)
        return url

    yield make
    for url in lent:
        cluster.give_back(url)
