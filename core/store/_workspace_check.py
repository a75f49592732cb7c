"""Telling an opgate workspace from any other file before ``reset_demo`` replaces what it holds.

A reset is destructive, so it acts only on a file that carries opgate's
schema (the ``store_meta`` table, every kind's table, a ``user_version`` that
opgate wrote). Anything else (someone's browser history, an empty file, WAL
files left without their database) is refused and left as it was: the check
opens the file read-only and never creates files beside it.
"""

from __future__ import annotations

import os
import urllib.parse
from dataclasses import dataclass
from pathlib import Path

import apsw

from ._errors import NotAWorkspace, SchemaTooNew
from ._kinds import KINDS
from ._locate import is_postgres_url
from ._migrate import available_migrations

SQLITE_HEADER = b"SQLite format 3\x00"
SIDE_FILES = ("-wal", "-shm")
# What a reset would replace, in the order a person reads it.
COUNTED_TABLES = (*(spec.table for spec in KINDS.values()), "edges", "task_documents")
REQUIRED_TABLES = frozenset({"store_meta", *COUNTED_TABLES})


@dataclass(frozen=True)
class WorkspaceContents:
    """Rows per table of a workspace file (``projects``, ``tasks``, ..., ``edges``)."""

    path: Path | str
    counts: dict[str, int]
    project_ids: tuple[str, ...] = ()

    @property
    def total(self) -> int:
        return sum(self.counts.values())

    def describe(self) -> str:
        """``3 projects, 41 tasks, 12 edges`` (tables with rows only), or ``nothing``."""
        held = [f"{count} {table.replace('_', ' ')}" for table, count in self.counts.items() if count]
        return ", ".join(held) or "nothing"


def inspect_workspace(path: str | os.PathLike[str]) -> WorkspaceContents | None:
    """What the workspace at ``path`` holds, or ``None`` if there is no file there yet.

    Raises :class:`NotAWorkspace` for anything that is not an opgate
    workspace, and :class:`SchemaTooNew` for one written by a newer opgate.
    A ``postgresql://`` URL is inspected in that database.
    """
    if is_postgres_url(str(path)):
        from ._pg_inspect import inspect_pg_workspace

        return inspect_pg_workspace(str(path))
    target = Path(path)
    if not target.exists():
        _refuse_stray_side_files(target)
        if not target.parent.is_dir():
            raise NotAWorkspace(f"{target.parent} is not a folder; there is no workspace to reset there")
        return None
    if not target.is_file():
        raise NotAWorkspace(f"{target} is not a regular file, so it is not an opgate workspace; refusing to touch it")
    with target.open("rb") as handle:
        header = handle.read(len(SQLITE_HEADER))
    if not header:
        raise NotAWorkspace(f"{target} is an empty file, not an opgate workspace; refusing to touch it. "
                            "Delete it yourself if you meant to, or pass another --db.")
    if header != SQLITE_HEADER:
        raise NotAWorkspace(f"{target} is not an SQLite database, so it is not an opgate workspace; refusing to touch it")
    return _read_contents(target)


def _refuse_stray_side_files(target: Path) -> None:
    stray = [f"{target}{suffix}" for suffix in SIDE_FILES if Path(f"{target}{suffix}").exists()]
    if stray:
        raise NotAWorkspace(
            f"{target} does not exist but {' and '.join(stray)} do: they belong to a database that is gone or "
            "elsewhere, and opgate will not touch them. Move them away, or pass another --db.")


def _read_only(target: Path) -> apsw.Connection:
    # With WAL files present the database may be live: read through them. Without,
    # "immutable" keeps SQLite from creating -wal and -shm files beside a stranger's file.
    live = any(Path(f"{target}{suffix}").exists() for suffix in SIDE_FILES)
    uri = "file:" + urllib.parse.quote(str(target.resolve())) + ("?mode=ro" if live else "?immutable=1")
    return apsw.Connection(uri, flags=apsw.SQLITE_OPEN_READONLY | apsw.SQLITE_OPEN_URI)


def _read_contents(target: Path) -> WorkspaceContents:
    conn = None
    try:
        conn = _read_only(target)
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        version = conn.execute("PRAGMA user_version").fetchall()[0][0]
        missing = REQUIRED_TABLES - tables
        if missing or version < 1:
            found = ", ".join(sorted(t for t in tables if not t.startswith("sqlite_"))) or "no tables"
            raise NotAWorkspace(
                f"{target} is an SQLite database but not an opgate workspace (it has {found}; an opgate "
                "workspace has store_meta, projects, tasks, ...); refusing to touch it")
        latest = available_migrations()[-1].version
        if version > latest:
            raise SchemaTooNew(version, latest, str(target))
        counts = {table: conn.execute(f"SELECT count(*) FROM {table}").fetchall()[0][0] for table in COUNTED_TABLES}
        project_ids = tuple(row[0] for row in conn.execute("SELECT id FROM projects ORDER BY id"))
    except apsw.Error as exc:
        raise NotAWorkspace(f"cannot read {target} as a database ({exc}); refusing to touch it") from exc
    finally:
        if conn is not None:
            conn.close()
    return WorkspaceContents(target, counts, project_ids)
