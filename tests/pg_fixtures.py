"""The workspace store on each backend, for conftest.py: SQLite files, and databases in one PostgreSQL cluster.

Store, handler and exec tests ask for ``new_workspace`` (directly or through
their folder's ``store`` fixture) and so run once per backend: SQLite files
in tmp_path, and databases in one PostgreSQL cluster started for the session
(pg_cluster.py), which stops with the session even when pytest is killed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
