"""``store.write(lock_late=True)``: reads run without the write lock, the first write method takes it.

A create reads to warn and to fail early, then inserts. Holding the store's
one write lock through those reads made every other writer wait for them;
with ``lock_late`` other writers commit in between, and the write method
checks again, under the lock, everything the write relies on. Each test runs
on SQLite and on PostgreSQL, with a second store object standing for another
process.
"""

from __future__ import annotations

import threading

import pytest

from opgate.core.store import NotFound, OntologyStore
from opgate.core.store._locate import connect_store
from opgate.core.store._names import diff_names


@pytest.fixture
def other(store: OntologyStore):
    """A second store on the same workspace: another process's connections."""
    with connect_store(getattr(store, "url", store.location)) as opened:
        yield opened


def _project(store: OntologyStore) -> str:
    with store.write() as tx:
        return tx.insert("project", {"name": "Late locks"})["id"]


def _commit_elsewhere(other: OntologyStore, project_id: str, title: str) -> None:
    """A write by another connection, in a thread that must not wait for ours (joined with a bound)."""
    done = threading.Event()

    def write() -> None:
        with other.write() as tx:
            tx.insert("task", {"project_id": project_id, "title": title})
        done.set()

    thread = threading.Thread(target=write)
    thread.start()
    thread.join(timeout=10)
    assert done.is_set(), "another writer waited for a transaction that had not written yet"


def test_reads_before_the_first_write_leave_the_lock_free(store, other):
    project_id = _project(store)
    with store.write(lock_late=True) as tx:
        assert tx.list("task", {"project_id": project_id}).total == 0
        _commit_elsewhere(other, project_id, "written while we read")
        created = tx.insert("task", {"project_id": project_id, "title": "ours"})
        # From the first write on, the transaction sees the state it writes into.
        assert {row["title"] for row in tx.list("task", {"project_id": project_id}).rows} == {"written while we read", "ours"}
    with store.read() as tx:
        assert tx.get("task", created["id"])["title"] == "ours"


def test_the_write_checks_its_references_again_under_the_lock(store, other):
    project_id = _project(store)
    with store.write() as tx:
        plan = tx.insert("plan", {"project_id": project_id, "name": "Soon gone"})
    with pytest.raises(NotFound):
        with store.write(lock_late=True) as tx:
            assert tx.find("plan", plan["id"]) is not None  # what a handler's early check saw
            with other.write() as elsewhere:
                elsewhere.delete("plan", plan["id"])
            tx.insert("task", {"project_id": project_id, "title": "on a deleted plan", "plan_id": plan["id"]})
    with store.read() as tx:
        assert tx.list("task", {"project_id": project_id}).total == 0


def test_once_locked_other_writers_wait(store, other):
    project_id = _project(store)
    order: list[str] = []
    with store.write(lock_late=True) as tx:
        tx.insert("task", {"project_id": project_id, "title": "first"})

        def write() -> None:
            with other.write() as elsewhere:
                elsewhere.insert("task", {"project_id": project_id, "title": "second"})
            order.append("other committed")

        thread = threading.Thread(target=write)
        thread.start()
        thread.join(timeout=0.3)
        order.append("ours still open")
    thread.join(timeout=10)
    assert order == ["ours still open", "other committed"]


def test_a_late_transaction_that_never_writes_commits_nothing_and_can_roll_back(store):
    project_id = _project(store)
    with store.write(lock_late=True) as tx:
        tx.list("task", {"project_id": project_id})
    with store.write(lock_late=True) as tx:
        tx.list("task", {"project_id": project_id})
        tx.rollback()
    assert tx.rolled_back
    with store.write(lock_late=True, dry_run=True) as tx:
        tx.insert("task", {"project_id": project_id, "title": "rehearsed"})
    assert [entry["row"]["title"] for entry in tx.changes.to_dict()["created"]] == ["rehearsed"]
    with store.read() as tx:
        assert tx.list("task", {"project_id": project_id}).total == 0


def test_a_missing_project_is_not_found_even_when_the_write_goes_from_the_snapshot(store):
    # On SQLite the INSERT's foreign key stands in for reading the project; the refusal
    # is checked again under the lock, so the error still names the missing project.
    with pytest.raises(NotFound) as raised, store.write(lock_late=True) as tx:
        tx.insert("task", {"project_id": "10000000-0000-4000-8000-00000000dead", "title": "orphan"})
    assert "10000000-0000-4000-8000-00000000dead" in str(raised.value)
    with store.read() as tx:
        assert tx.list("task", {"title": "orphan"}).total == 0


def test_a_write_from_a_current_snapshot_keeps_what_it_read_and_holds_the_lock(store, other):
    project_id = _project(store)
    with store.write(lock_late=True) as tx:
        seen = tx.list("task", {"project_id": project_id}).total
        tx.insert("task", {"project_id": project_id, "title": "first of two"})
        # Locked from the insert on: another writer now waits for this transaction.
        done = threading.Event()

        def write() -> None:
            with other.write() as elsewhere:
                elsewhere.insert("task", {"project_id": project_id, "title": "second of two"})
            done.set()

        thread = threading.Thread(target=write)
        thread.start()
        assert not done.wait(0.3)
        tx.insert("task", {"project_id": project_id, "title": "also ours"})
        assert tx.list("task", {"project_id": project_id}).total == seen + 2
    thread.join(timeout=10)
    assert done.is_set()
    with store.read() as tx:
        assert tx.list("task", {"project_id": project_id}).total == 3


def test_a_row_found_before_the_lock_is_reused_only_while_it_is_certainly_current(store, other):
    project_id = _project(store)
    from_snapshot = not hasattr(store, "url")  # SQLite writes from the snapshot; PostgreSQL always reads again
    with store.write(lock_late=True) as tx:
        found = tx.find("project", project_id)
        assert tx.known_row("project", project_id) is None  # nothing proves it current yet
        tx.insert("task", {"project_id": project_id, "title": "from the snapshot"})
        assert tx.known_row("project", project_id) == (found if from_snapshot else None)
        tx.update("project", project_id, {"name": "Renamed in here"})
        assert tx.known_row("project", project_id) is None  # any later write ends it
    with store.write(lock_late=True) as tx:
        tx.find("project", project_id)
        with other.write() as elsewhere:
            elsewhere.update("project", project_id, {"name": "Renamed elsewhere"})
        tx.insert("task", {"project_id": project_id, "title": "after the rename"})
        # The snapshot was stale: locked and checked again, so only the row read under the lock is known (SQLite).
        known = tx.known_row("project", project_id)
        assert (known["name"] if known else None) == ("Renamed elsewhere" if from_snapshot else None)
        assert tx.get("project", project_id)["name"] == "Renamed elsewhere"


def test_rows_checked_under_the_lock_name_the_diff_without_reading_again(store, other):
    project_id = _project(store)
    with store.write() as tx:
        plan = tx.insert("plan", {"project_id": project_id, "name": "The plan"})
    sqlite = not hasattr(store, "url")
    with store.write(lock_late=True) as tx:
        tx.find("project", project_id)
        _commit_elsewhere(other, project_id, "makes our snapshot stale")
        created = tx.insert("task", {"project_id": project_id, "title": "checked under the lock", "plan_id": plan["id"]})
        reads: list[str] = []
        if sqlite:
            tx._conn.exec_trace = lambda cursor, sql, bindings: reads.append(sql) or True
        names = diff_names(tx, tx.changes.to_dict())
        if sqlite:
            tx._conn.exec_trace = None
            assert reads == []  # the project and the plan were read by the insert's checks, under the lock
            assert tx.known_row("plan", plan["id"])["name"] == "The plan"
        else:
            assert tx.known_row("project", project_id) is None  # READ COMMITTED: PostgreSQL reads again
        assert names[project_id] == {"kind": "project", "name": "Late locks"}
        assert names[plan["id"]] == {"kind": "plan", "name": "The plan"}
        assert names[created["id"]]["name"] == "checked under the lock"
        tx.update("plan", plan["id"], {"name": "Renamed"})
        assert tx.known_row("plan", plan["id"]) is None  # until the next write
    with store.write() as tx:
        folder = tx.insert("document", {"project_id": project_id, "title": "Folder", "type_key": "document.folder"})
        tx.insert("document", {"project_id": project_id, "title": "Inside", "parent_id": folder["id"]})
        # A document's placement writes its siblings first: nothing it read is taken as current.
        assert tx.known_row("document", folder["id"]) is None
