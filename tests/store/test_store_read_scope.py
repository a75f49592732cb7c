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
