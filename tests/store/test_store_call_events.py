"""The call log's event columns (migration 0006): kinds, session and chain ids, JSON detail."""

from __future__ import annotations

import apsw
import pytest

from opgate.core.store import InvalidValue, open_store


def test_older_rows_read_as_exec_and_kinds_filter_the_history(tmp_path):
    with open_store(tmp_path / "ws.db") as store:
        with store.write() as tx:
            tx.append_call_logs([
                {"op": "onto.task.list", "ok": True},  # written as before 0006: no kind
                {"op": "move doc", "ok": True, "kind": "search", "session_id": "se_1", "chain_id": "tr_1", "trace_id": "tr_1", "detail": {"surfaced": ["onto.document.tree.move"]}},
                {"op": "onto.document.tree.move", "ok": False, "code": "VALIDATION_ERROR", "kind": "exec", "session_id": "se_1", "chain_id": "tr_1", "lane": "gateway"},
            ])
        with store.read() as tx:
            history = tx.recent_calls(10)
            every = tx.recent_calls(10, kind=None)
            since = tx.calls_since()
    assert [c["op"] for c in history] == ["onto.document.tree.move", "onto.task.list"]
    assert [c["kind"] for c in every] == ["exec", "search", "exec"]
    assert [c["op"] for c in since] == ["onto.task.list", "move doc", "onto.document.tree.move"]  # oldest first
    assert since[1]["detail"] == {"surfaced": ["onto.document.tree.move"]} and since[0]["detail"] is None
    assert since[2]["chain_id"] == "tr_1" and since[2]["lane"] == "gateway" and since[2]["ok"] is False


def test_calls_since_keeps_the_newest_within_its_limit(tmp_path):
    with open_store(tmp_path / "ws.db") as store:
        with store.write() as tx:
            tx.append_call_logs([{"ts": f"2026-11-2{n}T00:00:00Z", "op": f"op{n}", "ok": True} for n in range(1, 6)])
        with store.read() as tx:
            assert [c["op"] for c in tx.calls_since("2026-11-23T00:00:00Z")] == ["op3", "op4", "op5"]
            assert [c["op"] for c in tx.calls_since(limit=2)] == ["op4", "op5"]


def test_an_unknown_column_is_refused(tmp_path):
    with open_store(tmp_path / "ws.db") as store, pytest.raises(InvalidValue):
        with store.write() as tx:
            tx.append_call_logs([{"op": "x", "ok": True, "mood": "calm"}])


def test_the_migration_adds_the_columns_to_an_existing_log(tmp_path):
    db = tmp_path / "ws.db"
    with open_store(db):
        pass
    conn = apsw.Connection(str(db))
    columns = {row[1] for row in conn.execute("PRAGMA table_info(call_log)")}
    indexes = {row[1] for row in conn.execute("PRAGMA index_list(call_log)")}
    conn.close()
    assert {"kind", "session_id", "chain_id", "parent_id", "lane", "detail"} <= columns
    assert indexes == set()  # 0011 and 0012: the log is read by seq alone


def test_migration_0011_drops_the_session_index_and_keeps_every_entry(tmp_path):
    """A workspace made before 0011 (its session index and its entries) opens with the index gone and the log whole."""
    from opgate.core.store._migrate import available_migrations

    db = tmp_path / "ws.db"
    conn = apsw.Connection(str(db))
    for migration in available_migrations():
        if migration.version > 10:
            break
        conn.execute(migration.sql)
    conn.execute("PRAGMA user_version = 10")
    conn.execute("INSERT INTO call_log (ts, op, ok, kind, session_id) VALUES ('2026-11-26T00:00:00Z', 'onto.task.list', 1, 'exec', 'se_1')")
    assert "call_log_by_session" in {row[1] for row in conn.execute("PRAGMA index_list(call_log)")}
    conn.close()
    with open_store(db) as store:
        assert store.schema_version >= 11
        with store.read() as tx:
            assert [(c["op"], c["session_id"]) for c in tx.recent_calls(5)] == [("onto.task.list", "se_1")]
            indexes = {row[1] for row in tx._fetch("PRAGMA index_list(call_log)")}
    assert indexes == set()  # 0012 drops the kind and time indexes too


def test_the_history_walks_back_by_seq_without_a_sort(tmp_path):
    """With no index but seq (0012), the history reads from the newest row and stops at its limit: no sort of the table."""
    with open_store(tmp_path / "ws.db") as store, store.read() as tx:
        plan = " ".join(str(row[-1]) for row in tx._fetch(
            "EXPLAIN QUERY PLAN SELECT seq FROM call_log WHERE TRUE AND kind = ? ORDER BY seq DESC LIMIT ?", ("exec", 50)))
    assert "SCAN call_log" in plan and "TEMP B-TREE" not in plan and "INDEX" not in plan, plan


def test_migration_0011_on_postgres_drops_the_session_index_and_keeps_every_entry(pg_cluster):
    import psycopg

    from opgate.core.store import PostgresStore
    from opgate.core.store._pg_migrate import _VERSION_TABLE, pg_migrations

    url = pg_cluster.new_database(migrated=False)
    with psycopg.connect(url, autocommit=True) as conn:
        for migration in pg_migrations()[:10]:
            conn.execute(migration.sql)
        conn.execute(_VERSION_TABLE)
        conn.execute("INSERT INTO opgate_schema (version) VALUES (10)")
        conn.execute("INSERT INTO call_log (ts, op, ok, kind, session_id) VALUES ('2026-11-26T00:00:00Z', 'onto.task.list', 1, 'exec', 'se_1')")
        assert conn.execute("SELECT count(*) FROM pg_indexes WHERE indexname = 'call_log_by_session'").fetchone()[0] == 1
    with PostgresStore(url) as store:
        assert store.schema_version >= 11
        with store.read() as tx:
            assert [(c["op"], c["session_id"]) for c in tx.recent_calls(5)] == [("onto.task.list", "se_1")]
    with psycopg.connect(url, autocommit=True) as conn:
        indexes = {row[0] for row in conn.execute("SELECT indexname FROM pg_indexes WHERE tablename = 'call_log'")}
    assert indexes == {"call_log_pkey"}  # 0011 and 0012: read by seq alone
