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
    assert {"call_log_by_kind", "call_log_by_session"} <= indexes
