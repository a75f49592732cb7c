"""Many threads and many processes writing one workspace, on each backend.

Every write here reads first and then writes (a counter in a project's
props), the pattern that fails with "database is locked" under a deferred
BEGIN. With BEGIN IMMEDIATE the writers queue on the busy timeout instead,
and no increment is lost. On PostgreSQL the write lock is an advisory lock
taken as the transaction begins, with the same effect.
"""

from __future__ import annotations

import multiprocessing
import threading

from opgate.core.store import OntologyStore
from opgate.core.store._locate import connect_store

WRITES = 50


def _bump(store: OntologyStore, project_id: str, label: str) -> None:
    with store.write() as tx:
        project = tx.get("project", project_id)
        count = project["props"].get("count", 0)
        tx.update("project", project_id, {"props": {"count": count + 1}})
        tx.insert("task", {"project_id": project_id, "title": label})


def _project(store: OntologyStore) -> str:
    with store.write() as tx:
        return tx.insert("project", {"name": "Counter", "props": {"count": 0}})["id"]


def _totals(store: OntologyStore, project_id: str) -> tuple[int, int]:
    with store.read() as tx:
        return tx.get("project", project_id)["props"]["count"], tx.list("task").total


def test_eight_threads_share_one_store(store):
    project_id = _project(store)
    errors: list[BaseException] = []

    def worker(n: int) -> None:
        try:
            for i in range(WRITES):
                _bump(store, project_id, f"thread {n} write {i}")
                with store.read() as tx:
                    tx.list("task", {"project_id": project_id}, limit=5)
        except BaseException as exc:  # reported below, with the thread's error
            errors.append(exc)

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _totals(store, project_id) == (8 * WRITES, 8 * WRITES)


def _process_worker(path: str, project_id: str, n: int) -> None:
    with connect_store(path) as store:
        for i in range(WRITES):
            _bump(store, project_id, f"process {n} write {i}")


def test_four_processes_write_the_same_file(tmp_path, new_workspace):
    path = str(new_workspace(tmp_path, "shared.db"))
    with connect_store(path) as store:
        project_id = _project(store)
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_process_worker, args=(path, project_id, n)) for n in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0, 0, 0, 0]
    with connect_store(path) as store:
        assert _totals(store, project_id) == (4 * WRITES, 4 * WRITES)


def test_fresh_file_opened_by_four_processes_at_once(tmp_path, new_workspace):
    path = str(new_workspace(tmp_path, "race.db", migrated=False))
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_open_and_write, args=(path,)) for _ in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0, 0, 0, 0]
    with connect_store(path) as store, store.read() as tx:
        assert tx.list("project").total == 4


def _open_and_write(path: str) -> None:
    with connect_store(path) as store, store.write() as tx:
        tx.insert("project", {"name": "racer"})


def test_four_processes_seed_a_fresh_demo_once(tmp_path, monkeypatch, new_workspace):
    from store_testing import SMALL_WORKSPACE

    from opgate.core.store import _demo

    monkeypatch.setattr(_demo, "demo_fixture_path", lambda: SMALL_WORKSPACE)
    path = str(new_workspace(tmp_path, "demo.db", migrated=False))
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_open_demo, args=(path,)) for _ in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(60)
    assert [p.exitcode for p in processes] == [0, 0, 0, 0]
    with connect_store(path) as store, store.read() as tx:
        assert tx.list("project").total == 2


def _open_demo(path: str) -> None:
    from opgate.core.store import open_store

    open_store(path).close()


def test_a_lock_held_past_the_timeout_is_a_retryable_busy(tmp_path, monkeypatch):
    import apsw
    import pytest

    from opgate.core.store import SQLiteStore, StoreBusy, _sqlite_conn

    monkeypatch.setattr(_sqlite_conn, "BUSY_TIMEOUT_MS", 100)
    path = tmp_path / "busy.db"
    with SQLiteStore(path) as store:
        holder = apsw.Connection(str(path))
        holder.execute("BEGIN IMMEDIATE")
        try:
            with pytest.raises(StoreBusy) as caught, store.write():
                pass
            assert caught.value.retryable
            with store.read() as tx:  # WAL: readers are not blocked by the writer
                assert tx.list("project").total == 0
        finally:
            holder.execute("ROLLBACK")
            holder.close()
        with store.write() as tx:
            tx.insert("project", {"name": "after"})


def test_a_postgres_write_lock_held_past_the_timeout_is_a_retryable_busy(tmp_path, monkeypatch, pg_cluster):
    import psycopg
    import pytest

    from opgate.core.store import StoreBusy, _pg_conn
    from opgate.core.store._pg_migrate import WRITE_LOCK

    monkeypatch.setattr(_pg_conn, "LOCK_TIMEOUT_MS", 100)
    url = pg_cluster.new_database()
    with connect_store(url) as store, psycopg.connect(url, autocommit=True) as holder:
        holder.execute(f"SELECT pg_advisory_lock({WRITE_LOCK})")
        try:
            with pytest.raises(StoreBusy) as caught, store.write():
                pass
            assert caught.value.retryable
            with store.read() as tx:  # MVCC: readers are not blocked by the writer
                assert tx.list("project").total == 0
        finally:
            holder.execute(f"SELECT pg_advisory_unlock({WRITE_LOCK})")
        with store.write() as tx:
            tx.insert("project", {"name": "after"})


def _mover(path: str, first: str, second: str, rounds: int) -> None:
    from opgate.core.store import Conflict

    with connect_store(path) as store:
        for _ in range(rounds):
            for child, parent in ((first, second), (None, None)):
                try:
                    with store.write() as tx:
                        if child is None:
                            tx.move_document(first, None)
                            tx.move_document(second, None)
                        else:
                            tx.move_document(child, parent)
                except Conflict as exc:
                    assert str(exc).startswith("cycle")


def test_racing_tree_moves_never_make_a_cycle(tmp_path, new_workspace):
    """Two processes keep moving A under B and B under A: whoever goes second must see the cycle."""
    path = str(new_workspace(tmp_path, "tree.db"))
    with connect_store(path) as store, store.write() as tx:
        project = tx.insert("project", {"name": "Tree"})["id"]
        a = tx.insert("document", {"project_id": project, "title": "A"})["id"]
        b = tx.insert("document", {"project_id": project, "title": "B"})["id"]
    context = multiprocessing.get_context("fork")
    processes = [context.Process(target=_mover, args=(path, x, y, 25)) for x, y in ((a, b), (b, a))]
    for process in processes:
        process.start()
    for process in processes:
        process.join(120)
    assert [p.exitcode for p in processes] == [0, 0]
    with connect_store(path) as store, store.read() as tx:
        for document in (a, b):
            path_up = tx.document_path(document)
            assert path_up[0]["parent_id"] is None and len(path_up) <= 2
        assert {d["id"] for d in tx.document_subtree(a)} & {d["id"] for d in tx.document_subtree(b)} in (set(), {a}, {b})
