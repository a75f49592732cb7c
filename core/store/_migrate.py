"""Bringing a database up to the schema this opgate expects.

Migrations are the numbered ``migrations/NNNN_name.sql`` files, applied in
order. The schema version lives in ``PRAGMA user_version``; each migration
runs in its own ``BEGIN IMMEDIATE`` transaction that first re-reads the
version, so several processes opening a fresh file at once apply each step
exactly once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib import resources

import apsw

from ._errors import SchemaTooNew, StoreError
from ._sqlite_conn import fetch, translated

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def available_migrations(folder_name: str = "migrations") -> list[Migration]:
    """Every migration shipped with the package in ``folder_name`` (SQLite's by default), lowest version first."""
    folder = resources.files(__package__).joinpath(folder_name)
    found = []
    for entry in folder.iterdir():
        match = _FILE_NAME.match(entry.name)
        if match:
            found.append(Migration(int(match.group(1)), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    versions = [m.version for m in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, 3... without gaps; found {versions}")
    return found


def schema_version(conn: apsw.Connection) -> int:
    return fetch(conn, "PRAGMA user_version")[0][0]


def migrate(conn: apsw.Connection, path: str) -> int:
    """Apply every pending migration; return the resulting version.

    Refuses with :class:`SchemaTooNew` a database written by a newer opgate,
    rather than guess at a schema it does not know.
    """
    migrations = available_migrations()
    latest = migrations[-1].version if migrations else 0
    found = schema_version(conn)
    if found > latest:
        raise SchemaTooNew(found, latest, path)
    for migration in migrations:
        if migration.version > found:
            _apply(conn, migration)
    return max(found, latest)


def _apply(conn: apsw.Connection, migration: Migration) -> None:
    with translated():
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have applied it while we waited for the lock.
            if schema_version(conn) < migration.version:
                conn.execute(migration.sql)
                conn.execute(f"PRAGMA user_version = {int(migration.version)}")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise
