"""The PostgreSQL transactions: the shared mixins, running on a psycopg connection.

Every rule of the store (checks, defaults, the document tree, deletes, the
change set and the state digest) is the shared mixins' code; this module
only changes how a statement reaches the database (:mod:`._pg_sql`), plus
search, which has no shared spelling.

Each write statement runs inside a savepoint. In SQLite a statement that
fails (a constraint, a number out of range) undoes itself and leaves the
transaction usable; in PostgreSQL it would abort the whole transaction and
every later statement would fail. The savepoint gives back SQLite's
behaviour, so a handler that catches a store error and carries on works the
same on both.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from collections.abc import Mapping
from typing import Any

import psycopg

from ._errors import NulInText

from ._pg_conn import TRANSLATED, store_error, translated
from ._pg_migrate import write_lock_sql
from ._pg_search import PGSearchReads
from ._pg_sql import translate
from ._sqlite_base import SQLiteTxCore
from ._sqlite_bookkeeping import INSERT_CALL_LOG
from ._sqlite_tx import SQLiteReadTransaction, SQLiteWriteTransaction


class PGTxCore(SQLiteTxCore):
    """Statements through psycopg, translated from the mixins' shared SQL."""

    _conn: psycopg.Connection  # type: ignore[assignment]
    _CHAR_FUNCTION = "chr"
    # READ COMMITTED has no snapshot to keep: the first write takes the advisory lock, then checks again.
    _WRITES_FROM_SNAPSHOT = False
    _TITLE_KEY_BOUND = False
    _insert_call_log = INSERT_CALL_LOG  # its seq takes DEFAULT, not NULL: the columns are named
    _call_log_rows_at_once = 1  # executemany of the named INSERT, as before: psycopg has no statement ring to go round

    def _fetch(self, sql: str, params: Any = ()) -> list[tuple]:
        self._check_open()
        statement = translate(sql)
        try:  # a plain try rather than ``translated()``: every read statement passes here
            cursor = self._conn.execute(statement.sql, statement.params(params))
            return cursor.fetchall() if cursor.description is not None else []
        except TRANSLATED as exc:
            raise store_error(exc) from exc

    def _fetch_each(self, *statements: tuple[str, Any]) -> list[list[tuple]]:
        return [self._fetch(sql, params) for sql, params in statements]

    def _run(self, sql: str, params: Any = ()) -> int:
        self._check_open()
        statement = translate(sql)
        return self._in_savepoint(lambda cursor: cursor.execute(statement.sql, statement.params(params)))

    def _run_many(self, sql: str, rows: list[list[Any]]) -> None:
        self._check_open()
        statement = translate(sql)
        bound = [statement.params(row) for row in rows]
        self._in_savepoint(lambda cursor: cursor.executemany(statement.sql, bound))

    def _in_savepoint(self, work: Callable[[psycopg.Cursor], object]) -> int:
        """Run ``work`` on a cursor inside a savepoint; return the rows it changed.

        The savepoint, the statement and the release go in one round trip
        (pipeline mode): without it each write cost three.
        """
        conn = self._conn
        with translated():
            try:
                with conn.cursor() as cursor:
                    with conn.pipeline():
                        conn.execute("SAVEPOINT opgate_statement")
                        work(cursor)
                        conn.execute("RELEASE SAVEPOINT opgate_statement")
                    changed = cursor.rowcount  # known once the pipeline has synced
            except BaseException:
                status = conn.info.transaction_status
                if status == psycopg.pq.TransactionStatus.INERROR:
                    conn.execute("ROLLBACK TO SAVEPOINT opgate_statement")
                    conn.execute("RELEASE SAVEPOINT opgate_statement")
                elif status == psycopg.pq.TransactionStatus.INTRANS:
                    # psycopg refused the statement before sending it (text with NUL): only the savepoint ran.
                    with contextlib.suppress(psycopg.errors.InvalidSavepointSpecification):
                        conn.execute("RELEASE SAVEPOINT opgate_statement")
                raise
        return max(changed, 0)

    def _take_write_lock(self) -> None:
        # Read committed: every statement after the lock sees what the last writer committed.
        with translated():
            self._conn.execute(write_lock_sql())

    def interrupt(self) -> None:
        """Cancel the statement running on this transaction's connection (safe from another thread)."""
        self._conn.cancel_safe()


class PostgresReadTransaction(PGTxCore, PGSearchReads, SQLiteReadTransaction):
    """Reads over one snapshot (``REPEATABLE READ, READ ONLY``)."""


def refuse_nul(row: Mapping[str, Any], before: Mapping[str, Any] | None = None) -> None:
    """Name the field whose text holds NUL, which PostgreSQL's text cannot store (psycopg's refusal names no column).

    A JSON column is stored as its JSON text, where NUL is written ``\\u0000``: only plain text columns are asked.
    """
    for name, value in row.items():
        if type(value) is str and "\x00" in value and (before is None or before.get(name) != value):
            raise NulInText(name)


class PostgresWriteTransaction(PGTxCore, PGSearchReads, SQLiteWriteTransaction):
    """Reads and writes holding the store's write lock (see docs/store.md, "PostgreSQL")."""

    def _insert_row(self, spec: Any, row: dict) -> None:
        refuse_nul(row)
        super()._insert_row(spec, row)

    def _update_row(self, spec: Any, before: dict, after: dict) -> dict:
        refuse_nul(after, before)
        return super()._update_row(spec, before, after)

    def __init__(self, conn: psycopg.Connection, clock: Callable[[], str], dry_run: bool, *, lock_late: bool = False) -> None:
        super().__init__(conn, clock, dry_run, lock_late=lock_late)  # type: ignore[arg-type]

    def rollback(self) -> None:
        """End the transaction now and discard its writes; ``changes`` stays readable."""
        self._check_open()
        with translated():
            self._conn.execute("ROLLBACK")
        self._open = False
        self.rolled_back = True
