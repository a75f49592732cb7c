"""Versioned migrations on open."""

from __future__ import annotations

import apsw
import pytest

from opgate.core.store import SchemaTooNew, SQLiteStore
from opgate.core.store._migrate import available_migrations


def _version(path) -> int:
    conn = apsw.Connection(str(path))
    try:
        return conn.execute("PRAGMA user_version").fetchall()[0][0]
    finally:
        conn.close()


def test_fresh_database_gets_every_migration(tmp_path):
    latest = available_migrations()[-1].version
    with SQLiteStore(tmp_path / "w.db") as store:
        assert store.schema_version == latest
    assert _version(tmp_path / "w.db") == latest


def test_reopening_is_a_no_op(tmp_path):
    path = tmp_path / "w.db"
    with SQLiteStore(path) as store, store.write() as tx:
        tx.insert("project", {"name": "Kept"})
    dump = SQLiteStore(path).dump()
    with SQLiteStore(path) as again:
        assert again.dump() == dump
        assert [p["name"] for p in dump["projects"]] == ["Kept"]


def test_newer_database_is_refused(tmp_path):
    path = tmp_path / "w.db"
    SQLiteStore(path).close()
    conn = apsw.Connection(str(path))
    conn.execute("PRAGMA user_version = 999")
    conn.close()
    with pytest.raises(SchemaTooNew, match="999"):
        SQLiteStore(path)


def test_migrations_are_numbered_files():
    migrations = available_migrations()
    assert [m.version for m in migrations] == list(range(1, len(migrations) + 1))
    assert migrations[0].name == "0001_initial.sql"


def test_connection_settings(store, backend):
    if backend == "sqlite":
        with store.read() as tx:
            assert tx._fetch("PRAGMA journal_mode")[0][0] == "wal"
            assert tx._fetch("PRAGMA foreign_keys")[0][0] == 1
        return
    with store.read() as tx:  # one snapshot that never blocks and never fails to serialize
        assert tx._fetch("SHOW transaction_isolation")[0][0] == "repeatable read"
        assert tx._fetch("SHOW transaction_read_only")[0][0] == "on"
    with store.write() as tx:  # the write lock, then each statement sees every earlier commit
        assert tx._fetch("SHOW transaction_isolation")[0][0] == "read committed"
        held = tx._fetch("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid()")
        assert held[0][0] == 1



def test_a_waiting_writer_retries_until_its_timeout(tmp_path):
    """The busy handler (short random sleeps instead of SQLite's growing ones) waits, then gives up."""
    import threading

    from opgate.core.store._sqlite_conn import connect, patient

    path = str(tmp_path / "busy.db")
    holder, waiter = connect(path), connect(path)
    waiter.set_busy_handler(patient(timeout_ms=100))
    holder.execute("BEGIN IMMEDIATE")
    with pytest.raises(apsw.BusyError):
        waiter.execute("BEGIN IMMEDIATE")
    releaser = threading.Timer(0.05, holder.execute, args=("COMMIT",))
    waiter.set_busy_handler(patient(timeout_ms=5000))
    releaser.start()
    waiter.execute("BEGIN IMMEDIATE")  # waits for the holder's commit instead of failing
    waiter.execute("COMMIT")
    releaser.join()


def test_postgres_migrations_keep_step_with_sqlites():
    """migrations_pg/NNNN is SQLite's NNNN in PostgreSQL's words (docs/store.md, "Schema and migrations per dialect")."""
    from opgate.core.store._pg_migrate import pg_migrations

    sqlite_versions = [m.version for m in available_migrations()]
    assert [m.version for m in pg_migrations()] == sqlite_versions, (
        "every SQLite migration needs a PostgreSQL file of the same number in core/store/migrations_pg/"
    )


def test_postgres_database_gets_every_migration_once(pg_cluster):
    import psycopg

    from opgate.core.store import PostgresStore
    from opgate.core.store._pg_migrate import pg_migrations

    url = pg_cluster.new_database(migrated=False)
    with PostgresStore(url) as store, store.write() as tx:
        assert store.schema_version == pg_migrations()[-1].version
        tx.insert("project", {"name": "Kept"})
    with PostgresStore(url) as again:  # reopening changes nothing
        assert [p["name"] for p in again.dump()["projects"]] == ["Kept"]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("UPDATE opgate_schema SET version = 999")
    with pytest.raises(SchemaTooNew, match="999"):
        PostgresStore(url)


@pytest.mark.parametrize("table", ["tasks", "documents"])
def test_the_same_title_check_of_a_create_reads_an_index_not_the_project(tmp_path, table):
    SQLiteStore(tmp_path / "w.db").close()
    conn = apsw.Connection(str(tmp_path / "w.db"))
    plan = conn.execute(f"EXPLAIN QUERY PLAN SELECT id FROM {table} WHERE project_id = ? AND title = ?", ("p", "t")).fetchall()
    conn.close()
    assert any(f"{table}_by_project_title" in str(step[-1]) for step in plan), plan
