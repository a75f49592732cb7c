"""A workspace made before migration 0011 (schema 10, with call-log rows and its session and kind indexes) opens,
migrates to the latest schema once (0011 and 0012 drop those and the time index), keeps what it held, and logs and reads
calls; on each backend."""

from __future__ import annotations

import apsw
import pytest

from opgate.core import Gateway
from opgate.core.store import PostgresStore, SQLiteStore
from opgate.core.store._migrate import available_migrations
from opgate.core.store._pg_migrate import pg_migrations

OLD_CALL = "INSERT INTO call_log (ts, op, ok, kind, session_id) VALUES ('2026-11-01T00:00:00Z', 'onto.task.list', 1, 'exec', 'sess-old')"


def _sqlite_at_version_10(path) -> None:
    conn = apsw.Connection(str(path))
    try:
        for migration in available_migrations()[:10]:
            conn.execute(migration.sql)
            conn.execute(f"PRAGMA user_version = {migration.version}")
        conn.execute(OLD_CALL)
    finally:
        conn.close()


def _sqlite_indexes(path) -> set[str]:
    conn = apsw.Connection(str(path))
    try:
        return {name for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'call_log'")}
    finally:
        conn.close()


def test_an_sqlite_workspace_at_schema_10_upgrades(tmp_path):
    path = tmp_path / "old.db"
    _sqlite_at_version_10(path)
    assert {"call_log_by_session", "call_log_by_kind"} <= _sqlite_indexes(path)
    with SQLiteStore(path) as store:
        assert store.schema_version == available_migrations()[-1].version == 12
    assert _sqlite_indexes(path) == set()  # read by seq only (0012)
    _calls_are_logged_and_read(lambda: SQLiteStore(path))


def test_a_postgresql_workspace_at_schema_10_upgrades(pg_cluster):
    import psycopg

    url = pg_cluster.new_database(migrated=False)
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("CREATE TABLE opgate_schema (version integer NOT NULL)")
        for migration in pg_migrations()[:10]:
            conn.execute(migration.sql)
        conn.execute("INSERT INTO opgate_schema (version) VALUES (10)")
        conn.execute(OLD_CALL)
        assert conn.execute("SELECT count(*) FROM pg_indexes WHERE indexname IN ('call_log_by_session', 'call_log_by_kind', 'call_log_by_ts')").fetchone()[0] == 3
    with PostgresStore(url) as store:
        assert store.schema_version == pg_migrations()[-1].version == 12
    with psycopg.connect(url, autocommit=True) as conn:
        assert conn.execute("SELECT count(*) FROM pg_indexes WHERE tablename = 'call_log' AND indexname <> 'call_log_pkey'").fetchone()[0] == 0
        assert conn.execute("SELECT max(version) FROM opgate_schema").fetchone()[0] == 12
    _calls_are_logged_and_read(lambda: PostgresStore(url))


def _calls_are_logged_and_read(open_store) -> None:
    gateway = Gateway(store=open_store())
    assert gateway.exec("onto.project.list", {})["ok"]
    gateway.close()  # writes its call log out, and closes the store
    with open_store() as store, store.read() as tx:
        calls = tx.calls_since(None)
    assert len(calls) == 2 and calls[0]["op"] == "onto.task.list" and calls[1]["op"] == "onto.project.list", calls
