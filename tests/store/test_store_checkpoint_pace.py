"""The store's connections checkpoint the WAL once per 1,000 new frames, not after every commit past 1,000.

With several processes writing, some connection always holds a snapshot, so
the WAL never starts again from the top and SQLite's own hook would try a
checkpoint (and sync the WAL) after every commit (``checkpoint_policy``).
"""

from __future__ import annotations

import os
from pathlib import Path

import apsw

from opgate.core.store._sqlite_conn import CHECKPOINT_EVERY_FRAMES, checkpoint_policy
from opgate.core.store._sqlite_store import SQLiteStore


class CountingConnection(apsw.Connection):
    """A real connection that counts the checkpoints asked of it."""

    def __init__(self, path: str) -> None:
        super().__init__(path)
        self.checkpoints = 0

    def wal_checkpoint(self, *args, **kwargs):
        self.checkpoints += 1
        return super().wal_checkpoint(*args, **kwargs)


def _wal_connection(path: Path) -> CountingConnection:
    conn = CountingConnection(str(path))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (x BLOB)")
    return conn


def test_with_a_reader_holding_the_wal_it_checkpoints_once_per_so_many_new_frames(tmp_path: Path) -> None:
    writer = _wal_connection(tmp_path / "w.db")
    frames_seen: list[int] = []
    pace = checkpoint_policy(every_frames=10)

    def hook(conn: apsw.Connection, name: str, frames: int) -> int:
        frames_seen.append(frames)
        return pace(conn, name, frames)

    writer.set_wal_hook(hook)
    reader = apsw.Connection(str(tmp_path / "w.db"))
    reader.execute("BEGIN")
    reader.execute("SELECT count(*) FROM t").fetchall()  # a snapshot: the WAL cannot start again from the top
    for n in range(60):
        writer.execute("INSERT INTO t VALUES (?)", (os.urandom(100),))
    assert len(frames_seen) == 60
    assert frames_seen == sorted(frames_seen)  # the WAL only grew
    # One checkpoint each time the WAL grew 10 frames past the last one: far fewer than the 60 commits.
    expected, last = 0, 0
    for frames in frames_seen:
        if frames - last >= 10:
            expected, last = expected + 1, frames
    assert writer.checkpoints == expected
    assert 1 <= expected < len(frames_seen) // 2
    reader.execute("COMMIT")


def test_when_the_wal_starts_again_it_counts_from_the_top(tmp_path: Path) -> None:
    writer = _wal_connection(tmp_path / "w.db")
    writer.set_wal_hook(checkpoint_policy(every_frames=10))
    page = writer.execute("PRAGMA page_size").fetchall()[0][0]
    for n in range(400):  # about 40 rounds of 10 frames: without counting afresh, checkpoints would stop after the first
        writer.execute("INSERT INTO t VALUES (?)", (os.urandom(page // 2),))
    wal_bytes = (tmp_path / "w.db-wal").stat().st_size
    assert writer.checkpoints >= 20
    assert wal_bytes < 30 * (page + 24)  # the WAL was reused from the top, never grew past a few rounds


def test_the_store_connection_keeps_checkpointing(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "s.db")
    conn = store._connection()
    conn.execute("CREATE TABLE pace_probe (x BLOB)")
    page = conn.execute("PRAGMA page_size").fetchall()[0][0]
    db_before = (tmp_path / "s.db").stat().st_size
    for n in range(3 * CHECKPOINT_EVERY_FRAMES // 2):  # 2 frames each: 3,000 frames
        conn.execute("INSERT INTO pace_probe VALUES (?)", (os.urandom(page // 2),))
    assert (tmp_path / "s.db").stat().st_size > db_before + CHECKPOINT_EVERY_FRAMES * page // 2  # copied into the file
    assert (tmp_path / "s.db-wal").stat().st_size < (CHECKPOINT_EVERY_FRAMES + 100) * (page + 24)
    store.close()
