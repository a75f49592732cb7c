"""What every transaction mixin builds on: SQL helpers and the read log.

The mixins (``_sqlite_*``) serve both backends: PostgreSQL's transactions
run the same code with ``_fetch``, ``_run`` and ``_run_many`` sending each
statement through ``_pg_sql.translate``. Write their SQL in the dialect both
share (``TRUE``/``FALSE``, an alias on every subquery in ``FROM``, no
untyped parameter as a column of a recursive query); the few SQLite
spellings that translate knows are listed there.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

import apsw

from ._digest import UNOBSERVED, ReadLog
from ._errors import Conflict, NotFound, StoreBusy, StoreError
from ._kinds import EDGE_COLUMNS, LINK_COLUMNS, KindSpec, spec_for
from ._rows import Shape, decode, rows_plan
from ._sqlite_conn import _TRANSLATED, run, store_error, translated

EDGE_KIND = "edge"
LINK_KIND = "task_document"
_EDGE_JSON = frozenset({"props"})


def link_key(link: dict) -> str:
    """The id under which a task-document link is observed and reported."""
    return f"{link['task_id']}/{link['document_id']}"


def column_list(columns: Iterable[str], alias: str = "") -> str:
    prefix = f"{alias}." if alias else ""
    return ", ".join(prefix + c for c in columns)


# Every read of a get's edges and links starts so; spelled once rather than joined on each call.
_EDGES_WHERE = f"SELECT {column_list(EDGE_COLUMNS)} FROM edges WHERE "
_LINKS_WHERE = f"SELECT {column_list(LINK_COLUMNS)} FROM task_documents WHERE "


class SQLiteTxCore:
    """State shared by the read and write transaction mixins."""

    _CHAR_FUNCTION = "char"  # the code point to character function; PostgreSQL's is chr
    # A read transaction may turn into a write at its first write (see _in_current_snapshot); not so on PostgreSQL.
    _WRITES_FROM_SNAPSHOT = True
    # A title's key is computed in Python and bound (see title_key); PostgreSQL's lower() folds more than ASCII.
    _TITLE_KEY_BOUND = True

    def __init__(self, conn: apsw.Connection, clock: Callable[[], str], observe: bool = True) -> None:
        self._conn = conn
        self._clock = clock
        # A transaction that will never be asked for its digest notes nothing (see UnobservedReads; they share UNOBSERVED).
        self._observing = observe
        self._reads = ReadLog() if observe else UNOBSERVED
        self._open = True
        # False only in a write transaction opened with ``lock_late`` until its first write.
        self._locked = True
        # Rows found before the lock, and (see known_row) those proven current by a write from the snapshot.
        self._found_early: dict[tuple[str, str], dict] = {}
        self._found_current: dict[tuple[str, str], dict] | None = None

    # -- SQL ---------------------------------------------------------------

    def _fetch(self, sql: str, params: Any = ()) -> list[tuple]:
        if not self._open:
            self._check_open()
        # fetch()'s body, inline, on the connection's kept cursor: every read statement passes here.
        try:
            return self._conn.kept_cursor.execute(sql, params).fetchall()
        except _TRANSLATED as exc:
            raise store_error(exc) from exc

    def _fetch_each(self, *statements: tuple[str, Any]) -> list[list[tuple]]:
        """:meth:`_fetch` of each ``(sql, params)`` in turn, in one Python call (a get's row, links and edges)."""
        if not self._open:
            self._check_open()
        execute = self._conn.kept_cursor.execute  # each statement is fetched whole before the next
        fetched = []
        try:
            for sql, params in statements:
                fetched.append(execute(sql, params).fetchall())
        except _TRANSLATED as exc:
            raise store_error(exc) from exc
        return fetched

    def _run(self, sql: str, params: Any = ()) -> int:
        self._check_open()
        self._lock_for_write()
        self._found_current = None
        return run(self._conn, sql, params)

    def _run_many(self, sql: str, rows: list[list[Any]]) -> None:
        """Run one statement once per row of parameters."""
        self._check_open()
        self._lock_for_write()
        self._found_current = None
        with translated():
            self._conn.executemany(sql, rows)

    def interrupt(self) -> None:
        """Stop the statement running on this transaction's connection (safe from another thread).

        The dispatcher's hard timeout calls it; the interrupted statement raises
        and the transaction rolls back.
        """
        self._conn.interrupt()

    def _lock_for_write(self) -> None:
        """Take the write lock now if this transaction was opened without it (``lock_late``).

        Every write method calls this before its own checks, so what it checks
        and what it writes are read under the lock. Reads made before (a
        handler's early checks and warnings) came from an earlier state; only
        handlers whose early reads merely inform ask for ``lock_late``.
        """
        if self._locked:
            return
        self._check_open()
        self._take_write_lock()
        self._locked = True

    def _in_current_snapshot(self, attempt: Callable[[], None]) -> bool:
        """Run ``attempt`` (checks, then its one write) before taking the write lock; whether it was done.

        Only for a transaction opened with ``lock_late`` that has not written
        yet. SQLite gives a transaction that has only read the write lock at
        its first write if no other connection has committed since its
        snapshot began; otherwise that write fails at once (SQLITE_BUSY, the
        busy handler is not asked). So when the write goes through, every
        check the attempt made read the latest state, as if under the lock,
        and the COMMIT and BEGIN IMMEDIATE of taking the lock afresh are
        saved. When it does not (the snapshot is stale, another writer holds
        the lock, or a check refused on what may be stale), nothing was
        written: the transaction starts again under the lock, and the caller
        does it all again there.
        """
        if not self._WRITES_FROM_SNAPSHOT:
            return False
        self._locked = True  # so that the write runs as it is, in the snapshot
        try:
            attempt()
        except (StoreBusy, NotFound, Conflict):
            run(self._conn, "ROLLBACK")
            run(self._conn, "BEGIN IMMEDIATE")
            return False
        except BaseException:
            self._locked = False
            raise
        # What was found in the snapshot was the latest state when the write took the lock.
        self._found_current = self._found_early
        return True

    def known_row(self, kind: str, id: str) -> dict | None:
        """A row of ``kind`` this transaction found and that no write has touched since; None if there is none.

        Only after an insert went through from a current snapshot (see
        ``_in_current_snapshot``) and until the next write statement: then
        what was found before the lock is what the workspace holds, and the
        diff's names need not read it again. After an insert made under the
        lock (not of a document), the rows its reference checks read are
        known the same way. Not a copy: read it, do not hand it out.
        """
        found = self._found_current
        return found.get((kind, id)) if found else None

    def _take_write_lock(self) -> None:
        # SQLite cannot turn a read snapshot into a write once another connection
        # has committed since it began, so the snapshot ends (nothing was written
        # in it) and the write starts afresh, queueing for the lock like any writer.
        run(self._conn, "COMMIT")
        run(self._conn, "BEGIN IMMEDIATE")

    def _check_open(self) -> None:
        if not self._open:
            raise StoreError("this transaction has ended; open a new one with store.read() or store.write()")

    # -- rows --------------------------------------------------------------

    def _entity_rows(self, spec: KindSpec, sql: str, params: Any = (), fields: Collection[str] | None = None) -> list[dict]:
        """Run a SELECT of ``spec.columns`` and return observed, decoded rows.

        Every column is observed for the digest; with ``fields`` only those
        (and ``id``) are decoded into the rows handed back, so a caller that
        shows a summary does not pay for parsing ``props`` it would drop.
        """
        fetched = self._fetch(sql, params)
        self._reads.saw_rows(spec.kind, fetched)
        return rows_plan(spec, fields, None, every_column=True)[1](fetched)

    def _select(
        self, spec: KindSpec, where: str, params: Any = (), tail: str = "", fields: Collection[str] | None = None, shape: Shape | None = None,
    ) -> list[dict]:
        """Rows of ``spec`` matching ``where``: every field, or ``id`` and ``fields``, or keyed as ``shape`` says.

        A transaction that observes its reads fetches every column (the digest
        covers whole rows); one that does not fetches only what it hands back.
        """
        narrow = not self._observing and (fields is not None or shape is not None)
        columns, make_rows = rows_plan(spec, fields, shape, every_column=not narrow)
        fetched = self._fetch(f"SELECT {columns} FROM {spec.table} WHERE {where} {tail}", params)
        if not narrow:
            self._reads.saw_rows(spec.kind, fetched)
        return make_rows(fetched)

    def _find(self, kind: str, id: str) -> dict | None:
        rows = self._select(spec_for(kind), "id = ?", (id,))
        if not self._locked and rows:
            self._found_early[kind, id] = rows[0]
        return rows[0] if rows else None

    def _require(self, kind: str, id: str) -> dict:
        row = self._find(kind, id)
        if row is None:
            raise NotFound(kind, id)
        return row

    def _edge_rows(self, where: str, params: Any = (), tail: str = "") -> list[dict]:
        sql = f"{_EDGES_WHERE}{where} {tail}"
        fetched = self._fetch(sql, params)
        self._reads.saw_rows(EDGE_KIND, fetched)
        return [decode(EDGE_COLUMNS, values, _EDGE_JSON) for values in fetched]

    def _link_rows(self, where: str, params: Any = (), tail: str = "") -> list[dict]:
        sql = f"{_LINKS_WHERE}{where} {tail}"
        rows = []
        for values in self._fetch(sql, params):
            row = dict(zip(LINK_COLUMNS, values))
            self._reads.saw(LINK_KIND, link_key(row), values)
            rows.append(row)
        return rows

    # -- digest ------------------------------------------------------------

    def state_digest(self) -> str:
        """A hex digest of every pre-existing row and query result read so far."""
        return self._reads.digest()
