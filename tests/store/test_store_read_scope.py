"""SQLiteStore.read() as a plain context manager: it commits, rolls back and refuses nesting as the generator version did."""

from __future__ import annotations

import pytest

from opgate.core.store import StoreError, open_store


def test_a_read_ends_its_transaction_whatever_happens_inside(tmp_path):
    store = open_store(tmp_path / "ws.db", demo=False)
    conn = store._connection()
    with store.read() as tx:
        assert conn.in_transaction and tx.list("project").rows == []
    assert not conn.in_transaction
    with pytest.raises(ZeroDivisionError):
        with store.read(observe=False) as tx:
            1 / 0
    assert not conn.in_transaction
    with pytest.raises(StoreError):
        tx.list("project")  # a transaction that has ended says so
    store.close()


def test_a_read_inside_a_read_is_refused_and_the_outer_one_still_works(tmp_path):
    store = open_store(tmp_path / "ws.db", demo=False)
    with store.write() as tx:
        tx.insert("project", {"name": "P"})
    with store.read() as outer:
        with pytest.raises(StoreError, match="already open"):
            with store.read():
                pass
        assert [row["name"] for row in outer.list("project").rows] == ["P"]
        assert outer.state_digest()  # observed reads still give a digest
    store.close()


def _task(store) -> str:
    with store.write() as tx:
        project_id = tx.insert("project", {"name": "Scoped"})["id"]
        return tx.insert("task", {"project_id": project_id, "title": "Read me"})["id"]


def test_a_scope_entered_again_notes_only_its_own_reads(tmp_path):
    # The scope is the transaction itself (one object a read): what it noted for the digest starts afresh each time.
    store = open_store(tmp_path / "ws.db", demo=False)
    task_id = _task(store)
    with store.read() as tx:
        nothing_read = tx.state_digest()
    with store.read() as tx:
        tx.get("task", task_id)
        one_read = tx.state_digest()
    assert one_read != nothing_read
    scope = store.read()
    with scope as tx:
        tx.get("task", task_id)
        assert tx.state_digest() == one_read
    with scope as tx:
        assert tx.state_digest() == nothing_read  # the first entry's read is not this transaction's
    store.close()


def test_a_scope_left_is_closed_and_opens_again_when_entered(tmp_path):
    store = open_store(tmp_path / "ws.db", demo=False)
    task_id = _task(store)
    scope = store.read(observe=False)
    with scope as tx:
        assert tx.get("task", task_id)["title"] == "Read me"
    with pytest.raises(StoreError):
        tx.get("task", task_id)  # used after its with: refused
    with scope as tx:
        assert tx.get("task", task_id)["title"] == "Read me"
    assert not store._connection().in_transaction
    store.close()
