"""SQLite compiles a create's and a list's statements once, whatever values are bound to them later.

Without the query planner stability guarantee (``_sqlite_conn.connect``), the
bundled SQLite compiled a statement with ``LIMIT ?``, or with ``ORDER BY``
over an equality on an indexed expression, again on every run. SQLite asks
its authorizer about every table and column it compiles, and never when it
runs a compiled statement, so the authorizer's calls count the compilations.
"""

from __future__ import annotations

from pathlib import Path

import apsw

from opgate.core.store._sqlite_store import SQLiteStore


def _compilations(store: SQLiteStore, work) -> int:
    """How often SQLite compiled a statement while ``work(tx)`` ran in a read transaction, after one warm-up run."""
    conn = store._connection()
    asked: list[tuple] = []
    conn.authorizer = lambda *_: asked.append(_) or apsw.SQLITE_OK  # setting it expires every cached statement
    try:
        with store.read() as tx:
            work(tx, 0)  # compiled here
            asked.clear()
            for n in range(1, 4):
                work(tx, n)
            compiled = len(asked)  # before the COMMIT, itself compiled anew after the authorizer was set
    finally:
        conn.authorizer = None
    return compiled


def _project_with_tasks(store: SQLiteStore) -> str:
    with store.write() as tx:
        project_id = tx.insert("project", {"name": "Cached"})["id"]
        for n in range(3):
            tx.insert("task", {"project_id": project_id, "title": f"Task {n}"})
    return project_id


def _title_check(project_id: str):
    return lambda tx, n: tx.list_titled("task", project_id, f"Task {n}", limit=20 + n, fields=("title", "state_key", "created_at"))


def _list_page(project_id: str):
    return lambda tx, n: tx.list("task", {"project_id": project_id}, limit=1 + n, offset=n)


def test_a_title_check_and_a_list_page_are_compiled_once(tmp_path: Path):
    store = SQLiteStore(tmp_path / "w.db")
    project_id = _project_with_tasks(store)
    assert _compilations(store, _title_check(project_id)) == 0
    assert _compilations(store, _list_page(project_id)) == 0
    store.close()


def test_without_the_guarantee_they_were_compiled_on_every_run(tmp_path: Path):
    # What the test above guards against, shown on the same connection: the count can fail.
    store = SQLiteStore(tmp_path / "w.db")
    project_id = _project_with_tasks(store)
    store._connection().config(apsw.SQLITE_DBCONFIG_ENABLE_QPSG, 0)
    assert _compilations(store, _title_check(project_id)) > 0
    assert _compilations(store, _list_page(project_id)) > 0
    store.close()
