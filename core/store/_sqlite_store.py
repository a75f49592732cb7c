"""The SQLite workspace store: connections, transactions, dump.

One apsw connection per thread (SQLite connections must not be used by two
threads at once) and per process (a connection must never cross a fork).
Write transactions start with ``BEGIN IMMEDIATE``: taking the write lock up
front means a transaction that reads and then writes never finds the lock
taken at its first write, which in WAL mode fails at once with "database is
locked" regardless of the busy timeout.
"""

from __future__ import annotations

import os
import threading
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import MappingProxyType
from typing import Any

import apsw

from .._log import LazyLogger
from ._digest import UNOBSERVED, ReadLog
from ._errors import StoreError
from ._kinds import EDGE_COLUMNS, KINDS, LINK_COLUMNS
from ._migrate import migrate
from ._rows import decode, json_columns_of, utc_now
from ._sqlite_bookkeeping import call_log_rows
from ._sqlite_conn import _TRANSLATED, Connection, connect, fetch, run, store_error
from ._sqlite_tx import SQLiteReadTransaction, SQLiteWriteTransaction

_DUMP_ORDER = {
    "edges": ("id",),
    "task_documents": ("task_id", "document_id"),
    "idempotency_keys": ("caller", "key"),
    "store_meta": ("key",),
}
_JSON = {"edges": frozenset({"props"}), "idempotency_keys": frozenset({"response"})}
# What replace_contents empties: every row a workspace holds. store_meta is the
# file's own bookkeeping (it says the file was seeded) and stays.
_CONTENT_TABLES = ("task_documents", "edges", "idempotency_keys", "call_log",
                   *(spec.table for spec in reversed(KINDS.values())))


def _end(conn: apsw.Connection, failed: bool) -> None:
    """Close a transaction: roll back a failed one; commit the rest, rolling back if the commit itself fails."""
    if not conn.in_transaction:
        return
    if failed:
        run(conn, "ROLLBACK")
        return
    try:
        run(conn, "COMMIT")
    except BaseException:
        if conn.in_transaction:
            run(conn, "ROLLBACK")
        raise


_forks = 0
"""How many times this process's line of ancestry has forked (see ``_connection``); each child counts one more."""


def _forked() -> None:
    global _forks
    _forks += 1


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forked)


class SQLiteStore:
    """An opgate workspace in one SQLite file; safe to share between threads.

    ``clock`` returns the current time as ``YYYY-MM-DDTHH:MM:SSZ``; tests pass
    a fixed one.
    """

    def __init__(self, path: str | os.PathLike[str], *, clock: Callable[[], str] = utc_now) -> None:
        self.location = str(path)
        if not self.location.strip():
            # SQLite reads "" as "a private temporary database": writes would vanish on close.
            raise StoreError("the database path is empty; name a file (or leave the path out for the default workspace)")
        if self.location != ":memory:":
            Path(self.location).parent.mkdir(parents=True, exist_ok=True)
        self._clock = clock
        self._local = threading.local()
        self._all: weakref.WeakSet[apsw.Connection] = weakref.WeakSet()
        self._inherited: list[apsw.Connection] = []
        self._lock = threading.Lock()
        self.schema_version = migrate(self._connection(), self.location)

    # -- transactions --------------------------------------------------------

    def read(self, *, observe: bool = True) -> _ReadScope:
        """A read-only transaction over one snapshot; ``observe=False``: it keeps no state digest (see ``StoreTransaction``)."""
        return _ReadScope(self, observe)

    def write(self, *, dry_run: bool = False, lock_late: bool = False) -> _WriteScope:
        """A write transaction; commits on a clean exit unless ``dry_run``.

        ``lock_late``: reads run on a snapshot without the write lock until the
        first write method, which takes it (see ``SQLiteTxCore._lock_for_write``).
        """
        return _WriteScope(self, dry_run, lock_late)

    def log_calls(self, entries: Sequence[Mapping[str, Any]], *, sweep: tuple[str, int] | None = None) -> None:
        """Add call-log entries in a transaction of their own; ``sweep`` is ``delete_old_calls``'s (older_than, keep_newest).

        A file has one write lock, so this takes it; the call log's writer
        thread calls this off the request path, a batch at a time.
        """
        rows = call_log_rows(entries, self._clock)  # before the lock: only the INSERT needs it
        with self.write() as tx:
            tx.insert_call_log_rows(rows)
            if sweep is not None:
                tx.delete_old_calls(older_than=sweep[0], keep_newest=sweep[1])

    # -- whole-store helpers -------------------------------------------------

    def dump(self) -> dict[str, list[dict]]:
        """Every table's rows in a stable order, without internal ``seq`` columns.

        The call log is left out: it grows with every call, even dry-runs.
        """
        tables: dict[str, list[dict]] = {}
        with self.read() as tx:
            conn = tx._conn
            for spec in KINDS.values():
                rows = fetch(conn, f"SELECT {', '.join(spec.columns)} FROM {spec.table} ORDER BY id")
                tables[spec.table] = [decode(spec.columns, r, json_columns_of(spec)) for r in rows]
            columns = {"edges": EDGE_COLUMNS, "task_documents": LINK_COLUMNS}
            for table, order in _DUMP_ORDER.items():
                names = columns.get(table) or tuple(d[1] for d in fetch(conn, f"PRAGMA table_info({table})"))
                rows = fetch(conn, f"SELECT {', '.join(names)} FROM {table} ORDER BY {', '.join(order)}")
                tables[table] = [decode(names, r, _JSON.get(table, frozenset())) for r in rows]
        return tables

    def is_seeded(self) -> bool:
        """Whether :meth:`seed_once` has ever run on this file."""
        with self.read() as tx:
            return bool(tx._fetch("SELECT 1 FROM store_meta WHERE key = 'seeded'"))

    def seed_once(self, seed: Callable[[SQLiteWriteTransaction], object] | None) -> bool:
        """Run ``seed`` if this file has never been seeded; return whether it ran.

        Checked again under the write lock, so that of several processes
        opening a fresh file at once exactly one seeds it. ``None`` marks the
        file as seeded with nothing.
        """
        if self.is_seeded():
            return False
        with self.write() as tx:
            if tx._fetch("SELECT 1 FROM store_meta WHERE key = 'seeded'"):
                return False
            if seed is not None:
                seed(tx)
            tx._run("INSERT INTO store_meta (key, value) VALUES ('seeded', ?)", (tx._clock(),))
        return seed is not None

    def replace_contents(self, seed: Callable[[SQLiteWriteTransaction], object]) -> None:
        """Empty the workspace and run ``seed``, in one write transaction.

        The file, its WAL and its inode stay: processes that have the workspace
        open keep working on the same file, see the old rows until the commit
        and the new ones after it. Deleting the file instead would leave them
        writing into an unlinked file that nobody else can read.
        """
        with self.write() as tx:
            # Rows go table by table; references are checked once, at the commit.
            tx._run("PRAGMA defer_foreign_keys = ON")
            for table in _CONTENT_TABLES:
                tx._run(f"DELETE FROM {table}")
            seed(tx)
            tx._run("INSERT OR REPLACE INTO store_meta (key, value) VALUES ('seeded', ?)", (tx._clock(),))

    def close(self) -> None:
        """Close every connection this store opened, in every thread.

        A connection in use by another thread at this moment (the call-log
        writer committing a batch, a server thread mid-read) is closed as soon
        as its statement returns: apsw refuses to close it meanwhile.
        """
        with self._lock:
            connections = list(self._all)
            self._all.clear()
        self._local = threading.local()
        for conn in connections:
            _close_when_idle(conn, _CLOSE_PATIENCE_S)

    def __enter__(self) -> SQLiteStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- connections ---------------------------------------------------------

    def _connection(self) -> Connection:
        # One look in the thread-local attributes, none missing on the usual path: each look costs a few hundred instructions.
        try:
            conn = self._local.conn
        except AttributeError:
            return self._connect()
        # The process's fork count rather than os.getpid(): a system call on every transaction.
        return conn if conn.forks_when_made == _forks else self._connect()

    def _connect(self) -> Connection:
        """This thread's connection made anew: its first, or its first since this process was forked."""
        local = self._local
        if getattr(local, "conn", None) is not None:
            # Inherited through fork(): SQLite forbids using them here, and
            # closing counts as using, so they are kept alive and never touched.
            self._inherited.extend([local.conn, *self._all])
            self._all = weakref.WeakSet()
        conn = local.conn = connect(self.location)
        conn.forks_when_made = _forks
        with self._lock:
            self._all.add(conn)
        return conn


_log = LazyLogger(__name__)

# How long close() waits for another thread's statement before leaving that
# connection for the garbage collector: far above any statement the gateway
# runs, and short enough that a stuck thread cannot hang an exit.
_CLOSE_PATIENCE_S = 10.0


def _close_when_idle(conn: apsw.Connection, patience_s: float) -> None:
    deadline = time.monotonic() + patience_s
    pause = 0.001
    while True:
        try:
            conn.close()
            return
        except apsw.ThreadingViolationError:
            if time.monotonic() >= deadline:
                _log.warning("a workspace connection stayed busy in another thread for %g s; it closes when that thread lets go", patience_s)
                return
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


class _WriteScope:
    """``with store.write() as tx``: the write transaction, as a plain class like :class:`_ReadScope`.

    Every create, update and delete opens one; the two generator-based context
    managers it was spelled with cost six Python calls per write. A failure
    inside rolls back; a clean exit commits, or rolls back a dry-run; the
    transaction is closed either way.
    """

    __slots__ = ("_conn", "_dry_run", "_lock_late", "_store", "_tx")

    def __init__(self, store: SQLiteStore, dry_run: bool, lock_late: bool):
        self._store = store
        self._dry_run = dry_run
        self._lock_late = lock_late

    def __enter__(self) -> SQLiteWriteTransaction:
        store = self._store
        conn = store._connection()
        if conn.in_transaction:
            raise StoreError("a transaction is already open on this thread; pass its tx along instead")
        run(conn, "BEGIN" if self._lock_late else "BEGIN IMMEDIATE")
        tx = SQLiteWriteTransaction(conn, store._clock, self._dry_run, lock_late=self._lock_late)
        self._conn, self._tx = conn, tx
        return tx

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None, traceback: object) -> None:
        tx = self._tx
        failed = exc_type is not None
        if not failed and tx._open and self._dry_run:
            try:
                tx.rollback()
            except BaseException:
                tx._open = False
                _end(self._conn, failed=True)
                raise
        tx._open = False
        _end(self._conn, failed=failed)


class _ReadScope(SQLiteReadTransaction):
    """``with store.read() as tx``: the read transaction itself, which ``with`` opens (a deferred ``BEGIN``) and ends.

    Every read call opens one, so the scope is the transaction rather than a
    second object that makes it: a class called from Python costs a frame
    and its fields, about 2 k instructions a read (docs/performance.md, "A
    get in session 14"). It is spelled without generator-based context
    managers for the same reason. A failure inside rolls back, a clean exit
    commits, and the transaction is closed either way; it becomes a
    transaction only when entered.
    """

    # SQLiteTxCore's fields that never change in a read (it never takes the write lock, so it never finds rows before
    # it): set once here rather than on every read. Read-only, so that a write path reaching them would fail loudly.
    _locked = True
    _found_early: Mapping[tuple[str, str], dict] = MappingProxyType({})
    _found_current = None

    def __init__(self, store: SQLiteStore, observe: bool):  # the transaction's other fields are set when entered
        self._store = store
        self._observing = observe

    def __enter__(self) -> SQLiteReadTransaction:
        store = self._store
        conn = store._connection()
        if conn.in_transaction:
            raise StoreError("a transaction is already open on this thread; pass its tx along instead")
        # SQLiteTxCore.__init__'s fields that a read sets (see above), without its call.
        self._conn, self._clock, self._open = conn, store._clock, True
        self._reads = ReadLog() if self._observing else UNOBSERVED  # a fresh log each time the scope is entered
        # run()'s body, inline (as at the COMMIT below), on the connection's kept cursor: every read call passes here.
        try:
            conn.kept_cursor.execute("BEGIN")
        except _TRANSLATED as error:
            raise store_error(error) from error
        return self

    def __exit__(self, exc_type: Any, exc: Any, traceback: Any) -> None:
        self._open = False
        conn = self._conn
        if exc_type is not None or not conn.in_transaction:
            _end(conn, failed=exc_type is not None)
            return
        # _end's commit, inline: a clean read is nearly every call.
        try:
            conn.kept_cursor.execute("COMMIT")
        except BaseException as error:
            if conn.in_transaction:
                run(conn, "ROLLBACK")
            if isinstance(error, _TRANSLATED):
                raise store_error(error) from error
            raise
