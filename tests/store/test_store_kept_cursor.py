"""A read transaction runs its statements on the connection's kept cursor, and a failure leaves that cursor usable.

``conn.execute`` makes a cursor for every statement (about 3,000
instructions made and freed); a get's five statements now make none
(``_sqlite_conn.Connection``). apsw's ``cursor_factory`` makes every cursor
the connection hands out, so counting its calls counts the cursors.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from opgate.core.handlers._reads_entities import _DOCUMENT_SHAPE
from opgate.core.store import StoreError
from opgate.core.store._sqlite_store import SQLiteStore


def _task(store: SQLiteStore) -> str:
    with store.write() as tx:
        project_id = tx.insert("project", {"name": "Kept"})["id"]
        return tx.insert("task", {"project_id": project_id, "title": "Read me", "props": {"n": 1}})["id"]


def _counting_cursors(store: SQLiteStore) -> list[object]:
    conn = store._connection()
    made: list[object] = []
    factory = conn.cursor_factory
    conn.cursor_factory = lambda connection: made.append(connection) or factory(connection)
    return made


def test_a_get_makes_no_cursor(tmp_path: Path):
    store = SQLiteStore(tmp_path / "w.db")
    task_id = _task(store)
    made = _counting_cursors(store)
    with store.read(observe=False) as tx:
        found = tx.task_details(task_id, _DOCUMENT_SHAPE)  # as a get reads it
        assert tx._fetch("SELECT title FROM tasks WHERE id = ?", (task_id,)) == [("Read me",)]
    assert found is not None
    assert made == []  # BEGIN, the row, its links, its edges, the title and COMMIT all ran on the kept cursor
    store.close()


def test_a_statement_that_fails_leaves_the_kept_cursor_usable(tmp_path: Path):
    store = SQLiteStore(tmp_path / "w.db")
    task_id = _task(store)
    with pytest.raises(StoreError):
        with store.read() as tx:
            tx._fetch("SELECT no_such_column FROM tasks")
    with store.read() as tx:  # the same thread's connection and cursor, after the rollback
        assert tx._fetch("SELECT title FROM tasks WHERE id = ?", (task_id,)) == [("Read me",)]
        assert tx._fetch_each(("SELECT 1", ()), ("SELECT id FROM tasks WHERE id = ?", (task_id,))) == [[(1,)], [(task_id,)]]
    store.close()


def test_a_statement_read_row_by_row_keeps_its_own_cursor(tmp_path: Path):
    # A statement half read on a cursor of its own is not disturbed by the kept cursor's statements in between.
    store = SQLiteStore(tmp_path / "w.db")
    task_id = _task(store)
    with store.read() as tx:
        rows = tx._conn.execute("SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3")
        first = next(rows)
        assert tx._fetch("SELECT title FROM tasks WHERE id = ?", (task_id,)) == [("Read me",)]
        assert [first, *rows] == [(1,), (2,), (3,)]
    store.close()


def test_a_statement_interrupted_mid_read_leaves_the_kept_cursor_usable(tmp_path: Path):
    # The hard timeout interrupts the connection (tx.interrupt, from the watchdog's thread) while the kept cursor reads.
    store = SQLiteStore(tmp_path / "w.db")
    counting = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 1000000000) SELECT x FROM c"
    with pytest.raises(StoreError, match="interrupted"):
        with store.read() as tx:
            timer = threading.Timer(0.05, tx.interrupt)
            timer.start()
            try:
                tx._fetch(counting)
            finally:
                timer.cancel()
    with store.read() as tx:
        assert tx._fetch_each(("SELECT 1", ()), ("SELECT 2", ())) == [[(1,)], [(2,)]]
    assert not store._connection().in_transaction
    store.close()
