"""Bringing a database up to the schema this opgate expects.

Migrations are the numbered ``migrations/NNNN_name.sql`` files, applied in
order. The schema version lives in ``PRAGMA user_version``; each migration
runs in its own ``BEGIN IMMEDIATE`` transaction that first re-reads the
version, so several processes opening a fresh file at once apply each step
exactly once.
"""

from __future__ import annotations

import re
from pathlib import Path

import apsw

from .._record import record
from ._errors import SchemaTooNew, StoreError
from ._sqlite_conn import fetch, translated

_FILE_NAME = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@record(frozen=True)
class Migration:
    version: int
    name: str
    sql: str


def _migration_files(folder_name: str) -> list[tuple[int, Path]]:
    # The package's own folder: it is installed as files (never zipped), and importlib.resources
    # would load zipfile and its readers in every command that opens a workspace.
    folder = Path(__file__).parent / folder_name
    found = sorted((int(match.group(1)), entry) for entry in folder.iterdir() if (match := _FILE_NAME.match(entry.name)))
    versions = [version for version, _ in found]
    if versions != list(range(1, len(found) + 1)):
        raise StoreError(f"migrations must be numbered 1, 2, 3... without gaps; found {versions}")
    return found


def available_migrations(folder_name: str = "migrations") -> list[Migration]:
    """Every migration shipped with the package in ``folder_name`` (SQLite's by default), lowest version first."""
    return [Migration(version, entry.name, entry.read_text("utf-8")) for version, entry in _migration_files(folder_name)]


def schema_version(conn: apsw.Connection) -> int:
    return fetch(conn, "PRAGMA user_version")[0][0]


def migrate(conn: apsw.Connection, path: str) -> int:
    """Apply every pending migration; return the resulting version.

    Refuses with :class:`SchemaTooNew` a database written by a newer opgate,
    rather than guess at a schema it does not know.
    """
    files = _migration_files("migrations")
    latest = files[-1][0] if files else 0
    found = schema_version(conn)
    if found > latest:
        raise SchemaTooNew(found, latest, path)
    for version, entry in files:
        if version > found:  # only a pending migration's SQL is read
            _apply(conn, Migration(version, entry.name, entry.read_text("utf-8")))
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
