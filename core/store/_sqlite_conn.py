"""apsw connections set up the way opgate needs them, and apsw errors translated.

Why apsw and not the stdlib ``sqlite3``: see docs/store.md. In short, the
SQLite that ships with Python 3.11 is inside the range hit by SQLite's
WAL-reset corruption bug, and apsw bundles a fixed SQLite.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import apsw

from ._errors import Conflict, InvalidValue, StoreBusy, StoreError

BUSY_TIMEOUT_MS = 5000
CACHE_KIB = 64 * 1024
"""Page cache of each connection, in KiB (SQLite's default is 2 MiB).

With 2 MiB, a store past a few hundred MB evicts index pages it needs again
on the next insert (entity ids are random, so every insert lands on a
random page of the id index), and a bulk insert slowed down as the store
grew: 100,000 entities took 157 s in raw apsw against 57 s with 64 MiB. The
cache fills only as pages are read, so a small workspace stays small.
"""
BUSY_POLL_S = (0.002, 0.005)
"""How long a connection waiting for a lock sleeps between tries: a random span in this range.

It was 0.5-2 ms. With 4 processes making tasks, the waiters then woke about
9 times a create (each wake-up a few lock calls), took CPU from the process
holding the lock, and read more pages after it committed; with 2-5 ms, CPU
per create fell by 10% on average over 16 interleaved runs (lower in 12),
and the worst call stayed under 0.3 s (docs/performance.md).
"""


def patient(timeout_ms: int = BUSY_TIMEOUT_MS) -> Callable[[int], bool]:
    """A busy handler: try again every 2-5 ms (``BUSY_POLL_S``) until ``timeout_ms`` has passed.

    SQLite's own busy timeout sleeps 1, 2, 5, 10 ... up to 100 ms between
    tries, so with several processes writing, a waiter that just missed the
    lock often sleeps through the next few chances to take it, and one call
    waits far longer than the rest (the worst of 4 processes creating tasks
    took 0.55 s against 0.3 s with short random sleeps). Random spans keep
    waiters from retrying in step.
    """
    waiting_since = 0.0

    def handler(prior_calls: int) -> bool:
        nonlocal waiting_since
        now = time.monotonic()
        if prior_calls == 0:
            waiting_since = now
        elif (now - waiting_since) * 1000 >= timeout_ms:
            return False
        time.sleep(random.uniform(*BUSY_POLL_S))
        return True

    return handler


class Connection(apsw.Connection):
    """An apsw connection that keeps one cursor for the statements it runs to their end at once.

    ``conn.execute`` makes a cursor for every statement, and making one and
    freeing it cost about 3,000 instructions, as much as SQLite's own work for
    ``BEGIN`` or a row read by its id: a get's five statements paid 15 k for
    cursors (docs/performance.md, "A get in session 14"). :attr:`kept_cursor`
    serves the statements whose rows are all fetched before anything else runs
    on it (the read scope's ``BEGIN`` and ``COMMIT``, ``_fetch``,
    ``_fetch_each``); a statement read row by row, or left half read, takes a
    cursor of its own, as before. Each connection is used by one thread at a
    time, so its kept cursor is too.
    """

    forks_when_made = 0
    """How many times the process had forked when the store made it (see ``SQLiteStore._connection``)."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.kept_cursor = self.cursor()


def connect(path: str) -> Connection:
    """A connection in WAL mode with foreign keys on and a patient busy handler."""
    with translated():
        conn = Connection(path)
        conn.set_busy_handler(patient())
        _use_wal(conn)
        conn.execute("PRAGMA foreign_keys = ON")
        # In WAL mode NORMAL still never corrupts; it only skips the fsync per commit.
        conn.execute("PRAGMA synchronous = NORMAL")
        conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
        # The query planner stability guarantee: a plan never depends on a value bound to it. Without it,
        # the SQLite apsw bundles plans a statement with ``LIMIT ?`` (every page of a list), or with ORDER
        # BY over an equality on an indexed expression (the title check of every new task), for the values
        # of the moment, and compiles it again whenever one of them is bound anew, that is on every run:
        # about 250,000 instructions of a create's 1.74 M. opgate's plans gain nothing from the values (no
        # LIKE over an index, no partial index, no ANALYZE statistics), so each statement is compiled once
        # and kept in apsw's cache (tests/store/test_store_statement_cache.py).
        conn.config(apsw.SQLITE_DBCONFIG_ENABLE_QPSG, 1)
    return conn


def _use_wal(conn: apsw.Connection) -> None:
    # Switching a fresh file to WAL takes an exclusive lock that the busy
    # handler does not always wait for, so several processes creating the
    # same database at once retry here for up to the busy timeout.
    deadline = time.monotonic() + BUSY_TIMEOUT_MS / 1000
    while True:
        try:
            mode = conn.execute("PRAGMA journal_mode = WAL").fetchall()[0][0]
        except apsw.BusyError:
            mode = None
        if mode == "wal" or mode == "memory":
            return
        if time.monotonic() > deadline:
            raise StoreBusy("could not switch the database to WAL mode: it stayed locked")
        time.sleep(0.01)


def store_error(exc: BaseException) -> StoreError | None:
    """The store error an apsw error (or an integer too big to bind) stands for; None for anything else."""
    if isinstance(exc, (apsw.BusyError, apsw.LockedError)):
        return StoreBusy(f"the database is busy ({exc}); try again")
    if isinstance(exc, apsw.ConstraintError):
        return Conflict(f"the change breaks a storage constraint: {exc}")
    if isinstance(exc, OverflowError):
        # SQLite integers are 64-bit; a bigger number is bad input, not a storage failure.
        return InvalidValue("value", "a number is too large to store (integers stop at 2^63 - 1)")
    if isinstance(exc, apsw.Error):
        return StoreError(f"storage error: {exc}")
    return None


_TRANSLATED = (apsw.Error, OverflowError)


@contextlib.contextmanager
def translated() -> Iterator[None]:
    """Re-raise apsw errors as store errors, keeping the original as the cause."""
    try:
        yield
    except _TRANSLATED as exc:
        raise store_error(exc) from exc


def fetch(conn: apsw.Connection, sql: str, params: Any = ()) -> list[tuple]:
    """Run one statement and return all its rows, with errors translated."""
    # A plain try rather than ``translated()``: every read statement passes here, and a
    # generator-based context manager costs more than the statement's own Python work.
    try:
        return conn.execute(sql, params).fetchall()
    except _TRANSLATED as exc:
        raise store_error(exc) from exc


def run(conn: apsw.Connection, sql: str, params: Any = ()) -> int:
    """Run one statement for its effect; return the number of rows it changed."""
    try:
        conn.execute(sql, params)
        return conn.changes()
    except _TRANSLATED as exc:
        raise store_error(exc) from exc
