"""Nothing left open: the session fails for any gateway (its call log) or PostgreSQL pool a test never closed.

A gateway that is never closed keeps its call log's writer thread (and so the
log and its store) alive until the interpreter exits; the log's exit hook then
writes what is queued, and when the test's store or database is already gone
that fails with "could not write N call log entries as the log closed". A
PostgreSQL store that is never closed keeps its pool's connections (and the
pool's threads) until the interpreter exits, and the cluster cannot drop a
database a connection still holds.

The product keeps a set of its open call logs and one of its open pools; each
one is pinned to the test that opened it (a fixture it set up included), and at
the end of the session every one still open is reported by that test's name.
A gateway nobody holds any more is collected first (``gc.collect()``): what is
reported is what would still be open when the interpreter exits.

conftest.py imports this module's fixtures and hooks; tests/unit/test_open_resources.py
runs a leaking test under it and checks that its session fails.
"""

from __future__ import annotations

import gc
import sys
import weakref

import pytest

_MADE_IN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
# The session's fixtures close inside the last test's teardown, before its resources are pinned.
_running_test = ["collection"]


def _open_call_logs() -> set:
    from opgate.core.exec._telemetry import _OPEN

    return set(_OPEN)


def _open_pools() -> set:
    # Only a PostgreSQL workspace imports the pool module; without it no pool was ever opened.
    pg_conn = sys.modules.get("opgate.core.store._pg_conn")
    return set() if pg_conn is None else pg_conn.open_pools()


def _open_resources() -> set:
    return _open_call_logs() | _open_pools()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    before = _open_resources()
    if _running_test[0] == "collection":
        for resource in before:  # opened by a test module's top level
            _MADE_IN.setdefault(resource, f"collection (before {item.nodeid})")
    _running_test[0] = item.nodeid
    yield
    for resource in _open_resources() - before:
        _MADE_IN.setdefault(resource, item.nodeid)


@pytest.fixture(autouse=True, scope="session")
def _nothing_left_open():
    """Fails the session if a gateway (its call log) or a PostgreSQL pool opened by a test was never closed."""
    yield
    gc.collect()
    left = [f"{_kind(resource)} made in {_MADE_IN.get(resource, _running_test[0])}" for resource in _open_resources()]
    if left:
        pytest.fail(f"{len(left)} left open (close each gateway and store a test opens; the closed_after fixture does it):\n  "
                    + "\n  ".join(sorted(left)), pytrace=False)


def _kind(resource) -> str:
    if type(resource).__name__ == "CallLog":
        return "a call log (a Gateway never closed)"
    return "a PostgreSQL pool (a store never closed)"


@pytest.fixture
def closed_after():
    """``closed_after(gateway)``: the gateway (or store), closed when the test ends, passed or failed."""
    opened: list = []

    def keep(gateway):
        opened.append(gateway)
        return gateway

    yield keep
    for gateway in reversed(opened):
        gateway.close()
