"""The call log: queued off the request path, written in batches, bounded, swept, never lost on exit."""

from __future__ import annotations

import hashlib
import json
import logging
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import apsw
from opgate.core import Gateway
from opgate.core.exec._call_log_args import kept_args
from opgate.core.settings import GatewaySettings
from opgate.core.store import open_store

PROJECT = "10000000-0000-4000-8000-000000000001"
BIG = 3 * 1024 * 1024


def _logged(db: Path) -> list[dict]:
    with open_store(db) as store, store.read() as tx:
        return tx.recent_calls(10_000)


def _workspace_bytes(db: Path) -> int:
    return sum(path.stat().st_size for path in db.parent.glob(db.name + "*"))


def test_a_refused_call_keeps_a_digest_and_a_few_kb_of_its_arguments(tmp_path):
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db)  # no write access: every create is refused
    gateway.exec("onto.task.list", {})
    gateway.close()
    before = _workspace_bytes(db)
    gateway = Gateway(db_path=db)
    args = {"project_id": PROJECT, "title": "t", "description": "x" * BIG}
    for _ in range(20):
        assert not gateway.exec("onto.task.create", args)["ok"]
    entry = gateway.recent_calls(1)[0]
    gateway.close()
    assert entry["args_truncated"] is True and len(json.dumps(entry["args"])) <= 4096
    assert entry["args"]["title"] == "t" and entry["args"]["description"].startswith("xxx")
    assert entry["args_digest"] == hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()[:16]
    assert _workspace_bytes(db) - before < 1024 * 1024  # 20 x 3 MiB once grew it by 66 MB


def test_arguments_that_fit_are_kept_whole_and_copied():
    args = {"limit": 3, "nested": {"a": [1, 2]}}
    kept, _, truncated = kept_args(args, 4096)
    assert kept == args and kept is not args and kept["nested"] is not args["nested"] and not truncated
    many, _, truncated = kept_args({f"k{n}": n for n in range(5000)}, 4096)
    assert truncated and len(json.dumps(many)) <= 4096 and "more arguments not kept" in many["…"]


def test_a_read_never_waits_for_the_write_lock_to_log(tmp_path):
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db)
    gateway.exec("onto.project.list", {})
    holder = apsw.Connection(str(db))
    holder.execute("BEGIN IMMEDIATE")  # another process writing for a long time
    try:
        assert gateway.exec("onto.task.list", {"limit": 1})["ok"]
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    # Queued, not dropped: once the lock is free the entry is written.
    assert [c["op"] for c in gateway.recent_calls(2)] == ["onto.task.list", "onto.project.list"]
    gateway.close()


def test_close_writes_what_is_queued(tmp_path, new_workspace):
    db = new_workspace(tmp_path, "ws.db")
    slow = GatewaySettings(call_log_flush_s=3600, call_log_flush_entries=10_000)
    gateway = Gateway(db_path=db, settings=slow)
    for n in range(5):
        gateway.exec("onto.task.list", {"limit": n + 1})
    gateway.close()
    assert [c["args"]["limit"] for c in _logged(db)] == [5, 4, 3, 2, 1]


def test_a_full_batch_is_written_without_waiting_out_the_window(tmp_path, new_workspace):
    db = new_workspace(tmp_path, "ws.db")
    # The window is an hour: only the entry that fills the batch can wake the writer.
    gateway = Gateway(db_path=db, settings=GatewaySettings(call_log_flush_s=3600, call_log_flush_entries=20))
    try:
        for n in range(20):
            gateway.exec("onto.task.list", {"limit": n + 1})
        deadline = time.monotonic() + 30
        while len(_logged(db)) < 20 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(_logged(db)) == 20
        gateway.exec("onto.task.list", {"limit": 21})
    finally:
        gateway.close()
    assert len(_logged(db)) == 21


def test_nothing_is_lost_when_the_process_exits_without_closing(tmp_path, new_workspace):
    db = new_workspace(tmp_path, "ws.db")
    script = textwrap.dedent(f"""
        import sys
        from opgate.core import Gateway
        from opgate.core.settings import GatewaySettings
        gateway = Gateway(db_path={str(db)!r}, settings=GatewaySettings(call_log_flush_s=3600, call_log_flush_entries=10_000))
        for n in range(50):
            gateway.exec("onto.task.list", {{"limit": n + 1}})
        sys.exit(0)
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=60)
    assert len(_logged(db)) == 50


def test_old_entries_are_swept(tmp_path, new_workspace):
    db = new_workspace(tmp_path, "ws.db")
    with open_store(db) as store, store.write() as tx:
        tx.append_call_logs([{"ts": "2000-01-01T00:00:00Z", "op": "old", "ok": True}] * 3)
        tx.append_call_logs([{"op": "recent", "ok": True}] * 10)
    gateway = Gateway(db_path=db, settings=GatewaySettings(call_log_keep_rows=6))
    gateway.exec("onto.task.list", {})
    ops = [c["op"] for c in gateway.recent_calls(100)]
    gateway.close()
    assert ops == ["onto.task.list"] + ["recent"] * 5


def test_an_entry_after_a_quiet_spell_is_written_without_a_flush(tmp_path):
    # The writer thread sleeps on an empty queue; the next entry must wake it, not wait for a full batch.
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db)
    try:
        for round_ in range(2):
            trace = gateway.exec("onto.project.list", {})["meta"]["trace_id"]
            deadline = time.monotonic() + 5
            while trace not in {entry["trace_id"] for entry in _logged(db)}:
                assert time.monotonic() < deadline, f"entry {round_ + 1} was not written within 5 s"
                time.sleep(0.05)
    finally:
        gateway.close()


def test_entries_are_written_while_another_process_holds_the_write_lock_on_postgres(tmp_path, new_workspace):
    # On PostgreSQL the call log takes no write lock: a server's log keeps up while
    # another process runs a long write. An SQLite file has one write lock, so there
    # the entry waits in the queue (the read itself never waits; see above).
    from opgate.core.store._locate import connect_store, is_postgres_url

    db = new_workspace(tmp_path, "ws.db")
    gateway = Gateway(db_path=db)
    gateway.exec("onto.project.list", {})  # the workspace opened and seeded before the lock is taken
    holder = connect_store(db)
    try:
        with holder.write() as tx:  # another process writing for a long time
            tx.list("project", limit=1)
            started = time.monotonic()
            trace = gateway.exec("onto.task.list", {"limit": 1})["meta"]["trace_id"]
            assert time.monotonic() - started < 2.0
            if is_postgres_url(db):
                deadline = time.monotonic() + 5
                while trace not in {entry["trace_id"] for entry in _logged(db)}:
                    assert time.monotonic() < deadline, "the entry waited for the write lock"
                    time.sleep(0.05)
        assert trace in {entry["trace_id"] for entry in gateway.recent_calls(5)}
    finally:
        holder.close()
        gateway.close()


def test_a_killed_process_loses_at_most_its_last_flush_interval(tmp_path, new_workspace):
    # SIGKILL runs no code: whatever was still queued is gone. The writer commits the
    # queue every call_log_flush_s (0.25 s), so calls older than that are already written.
    db = new_workspace(tmp_path, "ws.db")
    script = textwrap.dedent(f"""
        import os, signal, time
        from opgate.core import Gateway
        gateway = Gateway(db_path={str(db)!r})
        for n in range(40):
            gateway.exec("onto.task.list", {{"limit": n + 1}})
        time.sleep(1.0)  # four flush intervals
        gateway.exec("onto.task.list", {{"limit": 99}})  # may be lost: killed before its flush
        os.kill(os.getpid(), signal.SIGKILL)
    """)
    finished = subprocess.run([sys.executable, "-c", script], timeout=60)
    assert finished.returncode == -9
    limits = [entry["args"]["limit"] for entry in _logged(db)]
    assert sorted(limit for limit in limits if limit != 99) == list(range(1, 41))


def test_a_gateway_used_after_close_still_answers_and_logs(tmp_path, new_workspace):
    # Gateway.close() is not the end: a call still running when a server closes its gateway finishes and is logged.
    db = new_workspace(tmp_path, "ws.db")
    gateway = Gateway(db_path=db)
    gateway.exec("onto.project.list", {})
    gateway.close()
    envelope = gateway.exec("onto.task.list", {"limit": 1})
    assert envelope["ok"], envelope
    assert [c["op"] for c in gateway.recent_calls(2)] == ["onto.task.list", "onto.project.list"]
    gateway.close()


def test_entries_that_close_cannot_write_are_reported_lost_not_said_to_wait(tmp_path):
    """The write lock held past the busy timeout at close: the warning said the entries wait for the next write, but none came."""
    # A handler on the module's own logger: a command line run earlier in the process may have stopped opgate's records propagating.
    records: list[logging.LogRecord] = []
    handler = logging.Handler(logging.WARNING)
    handler.emit = records.append
    logger = logging.getLogger("opgate.telemetry")
    level = logger.level
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    db = tmp_path / "ws.db"
    gateway = Gateway(db_path=db, settings=GatewaySettings(call_log_flush_s=3600, call_log_flush_entries=10_000))
    gateway.exec("onto.task.list", {"limit": 1})
    gateway.exec("onto.task.list", {"limit": 2})
    holder = apsw.Connection(str(db))
    holder.execute("BEGIN IMMEDIATE")  # another process writing for longer than the busy timeout
    try:
        gateway.close()
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        logger.removeHandler(handler)
        logger.setLevel(level)
    warnings = [record.getMessage() for record in records]
    assert any("2 call log entries" in text and "lost" in text for text in warnings), warnings
    assert not any("wait for the next write" in text for text in warnings), warnings
