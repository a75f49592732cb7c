"""Bringing a PostgreSQL database up to the schema this opgate expects.

PostgreSQL's migrations are the numbered files in ``migrations_pg/``, one
per SQLite migration of the same number (see docs/store.md for the porting
rule). The version lives in the one-row table ``opgate_schema``. Each file
runs in its own transaction holding the store's write lock (the advisory
lock every write takes), after reading the version again, so processes
opening a fresh database at once apply each file exactly once, and no write
runs against a half-migrated schema. PostgreSQL's DDL is transactional: a
file that fails leaves nothing behind.
"""

from __future__ import annotations

import psycopg

from ._errors import SchemaTooNew
from . import _pg_conn
from ._migrate import Migration, available_migrations
from ._pg_conn import retrying, translated

FOLDER = "migrations_pg"
WRITE_LOCK = 0x6F706761746501
"""The advisory lock every write transaction takes (see _pg_store); any 64-bit number opgate owns."""


def write_lock_sql() -> str:
    """The statements that take the store's write lock; the lock timeout is read now, so that tests can shorten it."""
    return f"SET LOCAL lock_timeout = {_pg_conn.LOCK_TIMEOUT_MS}; SELECT pg_advisory_xact_lock({WRITE_LOCK})"


_VERSION_TABLE = "CREATE TABLE IF NOT EXISTS opgate_schema (version integer NOT NULL)"


def pg_migrations() -> list[Migration]:
    return available_migrations(FOLDER)


def take_write_lock(conn: psycopg.Connection) -> None:
    """Inside a transaction: wait (up to the lock timeout) for the store's write lock."""
    conn.execute(write_lock_sql())


def schema_version(conn: psycopg.Connection) -> int:
    """The applied version, 0 for a database opgate never touched."""
    with translated():
        exists = conn.execute("SELECT to_regclass('opgate_schema') IS NOT NULL").fetchone()[0]
        if not exists:
            return 0
        row = conn.execute("SELECT version FROM opgate_schema").fetchone()
    return row[0] if row else 0


def migrate(conn: psycopg.Connection, location: str) -> int:
    """Apply every pending migration on ``conn`` (autocommit); return the resulting version."""
    migrations = pg_migrations()
    latest = migrations[-1].version if migrations else 0
    found = schema_version(conn)
    if found > latest:
        raise SchemaTooNew(found, latest, location)
    for migration in migrations:
        if migration.version > found:
            retrying(lambda m=migration: _apply(conn, m))
    return max(found, latest)


def _apply(conn: psycopg.Connection, migration: Migration) -> None:
    with translated():
        conn.execute("BEGIN")
        try:
            take_write_lock(conn)
            conn.execute(_VERSION_TABLE)
            # Another process may have applied it while we waited for the lock.
            if schema_version(conn) < migration.version:
                conn.execute(migration.sql)
                conn.execute("DELETE FROM opgate_schema")
                conn.execute("INSERT INTO opgate_schema (version) VALUES (%s)", [migration.version])
            conn.execute("COMMIT")
        except BaseException:
            if conn.info.transaction_status != psycopg.pq.TransactionStatus.IDLE:
                conn.execute("ROLLBACK")
            raise
