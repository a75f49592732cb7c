"""The PostgreSQL workspace store: a psycopg pool, transactions, dump, reset.

One database is one workspace. Reads run in ``REPEATABLE READ, READ ONLY``
transactions (one snapshot, never blocked, never failing to serialize);
writes run in ``READ COMMITTED`` transactions that first take one
transaction-scoped advisory lock, the store's write lock, so writers queue
exactly as SQLite's ``BEGIN IMMEDIATE`` makes them queue. docs/store.md
("PostgreSQL") says why this and not SERIALIZABLE.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import psycopg

from ._errors import StoreError
from ._kinds import EDGE_COLUMNS, KINDS, LINK_COLUMNS
from . import _pg_rates
from ._pg_conn import fetch, open_pool, redacted, retrying, translated
from ._pg_migrate import migrate, write_lock_sql
from ._pg_tx import PostgresReadTransaction, PostgresWriteTransaction
from ._rows import decode, json_columns_of, utc_now

_IDLE = psycopg.pq.TransactionStatus.IDLE
_DUMP_ORDER = {
    "edges": ("id",),
    "task_documents": ("task_id", "document_id"),
    "idempotency_keys": ("caller", "key"),
    "store_meta": ("key",),
}
_DUMP_COLUMNS = {
    "edges": EDGE_COLUMNS,
    "task_documents": LINK_COLUMNS,
    "idempotency_keys": ("caller", "key", "fingerprint", "response", "status", "created_at", "expires_at"),
    "store_meta": ("key", "value"),
}
_JSON = {"edges": frozenset({"props"}), "idempotency_keys": frozenset({"response"})}
_CONTENT_TABLES = ("task_documents", "edges", "idempotency_keys", "call_log",
                   *(spec.table for spec in reversed(KINDS.values())))
_BEGIN_READ = "BEGIN ISOLATION LEVEL REPEATABLE READ, READ ONLY"


def _rollback_quietly(conn: psycopg.Connection) -> None:
    """Roll back if a transaction is open; a connection too broken to answer is left to the pool to discard."""
    if conn.info.transaction_status != _IDLE:
        with contextlib.suppress(psycopg.Error):
            conn.execute("ROLLBACK")


class PostgresStore:
    """An opgate workspace in one PostgreSQL database; safe to share between threads.

    ``url`` is a libpq URL (``postgresql://user@host/dbname``). ``location``
    is the URL without its password. ``clock`` as for :class:`SQLiteStore`.
    """

    def __init__(self, url: str, *, clock: Callable[[], str] = utc_now) -> None:
        self.url = url
        self.location = redacted(url)
        self._clock = clock
        self._local = threading.local()
        self._lock = threading.Lock()
        self._pid = os.getpid()
        self._pool = open_pool(url)
        try:
            with self._pool.connection() as conn:
                self.schema_version = migrate(conn, self.location)
        except BaseException:
            self._pool.close()
            raise

    # -- transactions --------------------------------------------------------

    @contextlib.contextmanager
    def read(self, *, observe: bool = True) -> Iterator[PostgresReadTransaction]:
        """A read-only transaction over one snapshot; ``observe=False``: it keeps no state digest (see ``StoreTransaction``)."""
        with self._transaction(_BEGIN_READ) as conn:
            tx = PostgresReadTransaction(conn, self._clock, observe=observe)
            try:
                yield tx
            finally:
                tx._open = False

    @contextlib.contextmanager
    def write(self, *, dry_run: bool = False, lock_late: bool = False) -> Iterator[PostgresWriteTransaction]:
        """A write transaction holding the write lock; commits on a clean exit unless ``dry_run``.

        ``lock_late``: the lock is taken by the first write method instead of
        at the start (see ``SQLiteTxCore._lock_for_write``).
        """
        # The opening and the wait for the lock in one round trip.
        begin = "BEGIN ISOLATION LEVEL READ COMMITTED" + ("" if lock_late else "; " + write_lock_sql())
        with self._transaction(begin) as conn:
            tx = PostgresWriteTransaction(conn, self._clock, dry_run, lock_late=lock_late)
            try:
                yield tx
            except BaseException:
                tx._open = False
                raise
            if tx._open and dry_run:
                tx.rollback()
            tx._open = False

    @contextlib.contextmanager
    def _transaction(self, begin: str) -> Iterator[psycopg.Connection]:
        if getattr(self._local, "busy", False):
            raise StoreError("a transaction is already open on this thread; pass its tx along instead")
        self._local.busy = True
        pool = self._pool_now()
        try:
            with translated():
                conn = pool.getconn()
            try:
                with translated():
                    # The wait for the write lock counts as busy, like SQLite's busy timeout.
                    conn.execute(begin)
                # The body's own exceptions pass through untouched; only ours are translated.
                try:
                    yield conn
                except BaseException:
                    _rollback_quietly(conn)
                    raise
                if conn.info.transaction_status != _IDLE:
                    try:
                        with translated():
                            conn.execute("COMMIT")
                    except BaseException:
                        _rollback_quietly(conn)
                        raise
            finally:
                pool.putconn(conn)
        finally:
            self._local.busy = False

    def _pool_now(self):
        if os.getpid() != self._pid or self._pool.closed:
            # Inherited through fork(): the parent's sockets must not be touched
            # (closing them would end the parent's sessions), so a child opens its own.
            # Closed: used again after close(), it reopens as an SQLite store does (a psycopg pool cannot reopen).
            with self._lock:
                if os.getpid() != self._pid or self._pool.closed:
                    self._pool = open_pool(self.url)
                    self._pid = os.getpid()
        return self._pool

    def log_calls(self, entries: Sequence[Mapping[str, Any]], *, sweep: tuple[str, int] | None = None) -> None:
        """Add call-log entries without the store's write lock; ``sweep`` as for :meth:`SQLiteStore.log_calls`.

        The call log is a table of its own that no rule reads (its ``seq`` is
        an identity column), so concurrent inserts need no lock, and the
        writers of several processes never queue behind a create. The sweep
        runs in a transaction of its own, so a sweep that fails (two processes
        deleting the same rows) cannot take the entries with it.
        """
        # A write transaction's methods without its lock: opened "locked", it never asks for the lock.
        with self._transaction("BEGIN ISOLATION LEVEL READ COMMITTED") as conn:
            PostgresWriteTransaction(conn, self._clock, False).append_call_logs(entries)
        if sweep is not None:
            with self._transaction("BEGIN ISOLATION LEVEL READ COMMITTED") as conn:
                PostgresWriteTransaction(conn, self._clock, False).delete_old_calls(older_than=sweep[0], keep_newest=sweep[1])

    def spend_rate(self, name: str, rate: float, burst: int) -> float:
        """Spend one request of caller ``name``'s rate, shared by every process on this database (see ``_pg_rates``)."""
        return _pg_rates.spend(self._pool_now(), name, rate, burst)

    # -- whole-store helpers -------------------------------------------------

    def dump(self) -> dict[str, list[dict]]:
        """Every table's rows in a stable order (the call log left out), as :meth:`SQLiteStore.dump`."""
        tables: dict[str, list[dict]] = {}
        with self.read() as tx:
            conn = tx._conn
            for spec in KINDS.values():
                rows = fetch(conn, f"SELECT {', '.join(spec.columns)} FROM {spec.table} ORDER BY id")
                tables[spec.table] = [decode(spec.columns, r, json_columns_of(spec)) for r in rows]
            for table, order in _DUMP_ORDER.items():
                names = _DUMP_COLUMNS[table]
                rows = fetch(conn, f"SELECT {', '.join(names)} FROM {table} ORDER BY {', '.join(order)}")
                tables[table] = [decode(names, r, _JSON.get(table, frozenset())) for r in rows]
        return tables

    def is_seeded(self) -> bool:
        """Whether :meth:`seed_once` has ever run on this database."""
        with self.read() as tx:
            return bool(tx._fetch("SELECT 1 FROM store_meta WHERE key = 'seeded'"))

    def seed_once(self, seed: Callable[[PostgresWriteTransaction], object] | None) -> bool:
        """Run ``seed`` if this database has never been seeded; return whether it ran (see SQLiteStore)."""
        if self.is_seeded():
            return False

        def attempt() -> bool:
            with self.write() as tx:
                if tx._fetch("SELECT 1 FROM store_meta WHERE key = 'seeded'"):
                    return False
                if seed is not None:
                    seed(tx)
                tx._run("INSERT INTO store_meta (key, value) VALUES ('seeded', ?)", (tx._clock(),))
            return seed is not None

        return retrying(attempt)

    def replace_contents(self, seed: Callable[[PostgresWriteTransaction], object]) -> None:
        """Empty the workspace and run ``seed``, in one write transaction (see SQLiteStore)."""

        def attempt() -> None:
            with self.write() as tx:
                # Rows go table by table; references are checked once, at the commit.
                tx._run("SET CONSTRAINTS ALL DEFERRED")
                for table in _CONTENT_TABLES:
                    tx._run(f"DELETE FROM {table}")
                seed(tx)
                tx._run("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('seeded', ?)", (tx._clock(),))

        retrying(attempt)

    def close(self) -> None:
        """Close this process's connections; a later transaction opens new ones, as with SQLite."""
        if os.getpid() == self._pid:
            self._pool.close()

    def __enter__(self) -> PostgresStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
