"""SQLiteStore.close() while another thread is inside a statement on its own connection.

The call-log writer commits batches on its own thread; a test fixture or an
exiting program that closes the store at that moment used to get apsw's
ThreadingViolationError ("Connection is busy in another thread").
"""

from __future__ import annotations

import logging
import threading
import time

from opgate.core.store import open_store
from opgate.core.store import _sqlite_store


def _busy_in_a_thread(store, seconds: float):
    """Start a thread that runs one slow statement on its own connection; return it once the statement runs."""
    started = threading.Event()
    outcome: dict[str, object] = {}

    def slow(_value):
        started.set()
        time.sleep(seconds)
        return 1

    def work():
        conn = store._connection()
        conn.create_scalar_function("slow", slow, 1)
        try:
            outcome["rows"] = conn.execute("SELECT slow(1)").fetchall()
        except Exception as failure:  # the test reads it back
            outcome["failure"] = failure

    thread = threading.Thread(target=work)
    thread.start()
    assert started.wait(5)
    return thread, outcome


def test_close_waits_for_a_statement_running_in_another_thread(tmp_path):
    store = open_store(tmp_path / "ws.db", demo=False)
    thread, outcome = _busy_in_a_thread(store, 0.3)
    began = time.monotonic()
    store.close()  # raised ThreadingViolationError before
    waited = time.monotonic() - began
    thread.join(5)
    assert outcome == {"rows": [(1,)]}
    assert waited >= 0.1  # it did wait for the statement
    # Every connection is closed: the worker's, and the one open_store migrated with.
    assert not store._all


class _Kept(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


def test_close_gives_up_on_a_connection_that_stays_busy_and_says_so(tmp_path, monkeypatch):
    store = open_store(tmp_path / "ws.db", demo=False)
    thread, outcome = _busy_in_a_thread(store, 0.5)
    monkeypatch.setattr(_sqlite_store, "_CLOSE_PATIENCE_S", 0.05)
    # A handler on the module's own logger: the CLI's tests may have stopped
    # opgate's records from reaching the root logger that caplog listens to.
    kept = _Kept()
    logger = logging.getLogger(_sqlite_store.__name__)
    logger.addHandler(kept)
    try:
        store.close()
    finally:
        logger.removeHandler(kept)
    assert any("stayed busy" in message for message in kept.messages)
    thread.join(5)
    assert outcome == {"rows": [(1,)]}


def test_the_store_still_works_after_close_in_a_new_connection(tmp_path):
    store = open_store(tmp_path / "ws.db", demo=False)
    with store.write() as tx:
        tx.insert("project", {"name": "P"})
    store.close()
    with store.read() as tx:
        assert [row["name"] for row in tx.list("project").rows] == ["P"]
    store.close()


def test_every_backend_reopens_after_close(store):
    # SQLite opened a new connection; PostgreSQL answered "the database connection failed ... try again" from its closed pool.
    with store.write() as tx:
        tx.insert("project", {"name": "P"})
    store.close()
    with store.read() as tx:
        assert [row["name"] for row in tx.list("project").rows] == ["P"]
    with store.write() as tx:
        tx.insert("project", {"name": "Q"})
    store.close()
    store.close()  # closing twice changes nothing
    with store.read() as tx:
        assert sorted(row["name"] for row in tx.list("project").rows) == ["P", "Q"]
