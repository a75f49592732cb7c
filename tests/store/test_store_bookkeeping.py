"""The dispatcher's idempotency keys and call log."""

from __future__ import annotations

from opgate.core.store import connect_store


class Clock:
    def __init__(self) -> None:
        self.now = "2026-03-01T09:00:00Z"

    def __call__(self) -> str:
        return self.now


def test_idempotency_key_round_trip_and_expiry(tmp_path, new_workspace):
    clock = Clock()
    with connect_store(new_workspace(tmp_path, "w.db"), clock=clock) as store:
        with store.write() as tx:
            put = tx.put_idempotency_key("agent", "k1", fingerprint="f", status="pending", ttl_seconds=60)
            assert put["expires_at"] == "2026-03-01T09:01:00Z"
            tx.put_idempotency_key("agent", "k1", fingerprint="f", status="done",
                                   response={"ok": True, "result": [1]}, ttl_seconds=60)
        with store.read() as tx:
            record = tx.get_idempotency_key("agent", "k1")
            assert (record["status"], record["response"]) == ("done", {"ok": True, "result": [1]})
            assert tx.get_idempotency_key("other", "k1") is None
        clock.now = "2026-03-01T09:05:00Z"
        with store.read() as tx:
            assert tx.get_idempotency_key("agent", "k1") is None
            assert tx.get_idempotency_key("agent", "k1", include_expired=True)["fingerprint"] == "f"
        with store.write() as tx:
            assert tx.delete_expired_idempotency_keys() == 1
        assert store.dump()["idempotency_keys"] == []


def test_call_log_round_trip_and_not_dumped(store):
    with store.write() as tx:
        for n in range(3):
            tx.append_call_log({"trace_id": f"t{n}", "op": "onto.task.list", "tool_name": "list_onto_tasks",
                                "duration_ms": 1.5, "ok": n != 1, "code": None if n != 1 else "NOT_FOUND",
                                "dry_run": False, "caller": "agent", "args_digest": "abc"})
        assert not tx.changes
    with store.read() as tx:
        calls = tx.recent_calls(2)
        assert [c["trace_id"] for c in calls] == ["t2", "t1"]
        assert calls[1]["ok"] is False and calls[1]["code"] == "NOT_FOUND" and calls[1]["ts"]
        assert len(tx.recent_calls(caller="agent", op="onto.task.list")) == 3
        assert tx.recent_calls(caller="nobody") == []
    assert "call_log" not in store.dump()


def test_the_call_log_table_has_its_columns_in_the_order_rows_are_spelled(store):
    # SQLite's INSERT names no columns (a shorter statement for every call logged): it relies on this order.
    from opgate.core._call_log_row import CALL_LOG_COLUMNS

    with store.read() as tx:
        if type(tx).__name__.startswith("Postgres"):
            names = [name for (name,) in tx._fetch(
                "SELECT column_name FROM information_schema.columns WHERE table_name = 'call_log' AND table_schema = current_schema()"
                " ORDER BY ordinal_position")]
        else:
            names = [row[1] for row in tx._fetch("PRAGMA table_info(call_log)")]
    assert names == ["seq", *CALL_LOG_COLUMNS]


def test_a_batch_of_the_call_log_is_written_whole_and_in_call_order(store):
    # SQLite writes CALL_LOG_ROWS_AT_ONCE rows a statement and the batch's last few one by one; every row must land, in order.
    from opgate.core.store._sqlite_bookkeeping import CALL_LOG_ROWS_AT_ONCE

    for batch, count in enumerate((1, CALL_LOG_ROWS_AT_ONCE, 2 * CALL_LOG_ROWS_AT_ONCE + 3)):
        entries = [{"trace_id": f"b{batch}-{n}", "op": "onto.task.get", "ok": n % 3 != 0, "caller": "agent",
                    "args": {"n": n}, "kind": "exec" if n % 2 else "help"} for n in range(count)]
        store.log_calls(entries)
        with store.read() as tx:
            written = [call for call in tx.calls_since() if call["trace_id"].startswith(f"b{batch}-")]
        assert [call["trace_id"] for call in written] == [entry["trace_id"] for entry in entries]
        assert [(call["ok"], call["args"], call["kind"]) for call in written] == [
            (entry["ok"], entry["args"], entry["kind"]) for entry in entries]


def test_writing_a_batch_of_the_call_log_keeps_the_threads_read_statements_prepared(tmp_path, new_workspace):
    # apsw's statement cache is a ring of 100 slots moved on by every statement handed back: an executemany of
    # 100 rows went round it, and the reads of the same thread prepared their statements again after every batch.
    with connect_store(new_workspace(tmp_path, "w.db")) as store:
        if not hasattr(store, "_connection"):
            return  # PostgreSQL: no such cache
        with store.write() as tx:
            project = tx.insert("project", {"name": "P"})["id"]

        def read() -> None:
            with store.read() as tx:
                tx.get("project", project)

        read()
        conn = store._connection()
        store.log_calls([{"trace_id": f"t{n}", "op": "onto.project.get", "ok": True} for n in range(100)])
        misses = conn.cache_stats()["misses"]
        read()
        assert conn.cache_stats()["misses"] == misses
