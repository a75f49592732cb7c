"""``tx.list_titled``: titles equal but for ASCII case and spaces, found through an index on both backends."""

from __future__ import annotations

import apsw
from hypothesis import given, settings
from hypothesis import strategies as st

from opgate.core.store import OntologyStore
from opgate.core.store._sqlite_entities import TITLE_SPACES, title_key, title_key_sql
from opgate.core.store._sqlite_store import SQLiteStore

TITLES = ["Write the spec", "write  THE spec", "Write\tthe\nspec", "Write\u00a0the spec", "Writethespec",
          "Write the specs", "Write the spec!", "Wríte the spec"]


def _project_with_tasks(store: OntologyStore) -> tuple[str, dict[str, str]]:
    with store.write() as tx:
        project_id = tx.insert("project", {"name": "Titles"})["id"]
        elsewhere = tx.insert("project", {"name": "Elsewhere"})["id"]
        tx.insert("task", {"project_id": elsewhere, "title": "Write the spec"})
        ids = {title: tx.insert("task", {"project_id": project_id, "title": title})["id"] for title in TITLES}
    return project_id, ids


def test_variants_of_case_and_spacing_are_candidates_and_nothing_else(store):
    project_id, ids = _project_with_tasks(store)
    with store.read() as tx:
        page = tx.list_titled("task", project_id, "WRITE the SPEC", fields=("title",))
    expected = TITLES[:5]  # the key drops every space, so "Writethespec" is a candidate the caller narrows
    assert [row["title"] for row in page.rows] == expected  # oldest first
    assert [row["id"] for row in page.rows] == [ids[title] for title in expected]
    assert page.total == 5


def test_the_lookup_is_noted_in_the_state_digest(store):
    project_id, _ = _project_with_tasks(store)
    with store.read() as tx:
        tx.list_titled("task", project_id, "write the spec", limit=20)
        before = tx.state_digest()
    with store.write() as tx:
        tx.insert("task", {"project_id": project_id, "title": "WRITE THE SPEC"})
    with store.read() as tx:
        tx.list_titled("task", project_id, "write the spec", limit=20)
        assert tx.state_digest() != before


def test_the_lookup_walks_the_index(store):
    project_id, _ = _project_with_tasks(store)
    postgres = hasattr(store, "url")
    key = title_key_sql("title", "chr" if postgres else "char")
    arg = title_key_sql("?", "chr" if postgres else "char")
    with store.read() as tx:
        for table in ("tasks", "documents"):
            if postgres:
                tx._fetch("SET LOCAL enable_seqscan = off")
                plan = " ".join(r[0] for r in tx._fetch(f"EXPLAIN SELECT id FROM {table} WHERE project_id = ? AND {key} = {arg}", (project_id, "x")))
            else:
                plan = " ".join(str(r[-1]) for r in tx._fetch(f"EXPLAIN QUERY PLAN SELECT id FROM {table} WHERE project_id = ? AND {key} = {arg}", (project_id, "x")))
            assert f"{table}_by_project_title_key" in plan, plan


# Text SQLite's lower() might be thought to fold: other scripts' capitals, the
# Kelvin sign and dotted I, which Python's lower() would change.
TRICKY = ["", " ", "\t\n\r\u00a0", "ÀÉÎÕÜ", "\u212a\u0130ǅ", "A\u0000B", "ß SS", "Z[\\]^_`a", "\u2003em space", "😀 A"]


@given(st.text())
@settings(max_examples=300, deadline=None)
def test_the_bound_key_is_what_sqlite_makes_of_the_title(title):
    assert title_key(title) == _sqlite_key(title)


def test_the_bound_key_on_tricky_titles():
    for title in [*TRICKY, *TITLES]:
        assert title_key(title) == _sqlite_key(title), title


def test_sqlite_binds_the_key_and_still_walks_the_index(tmp_path):
    store = SQLiteStore(tmp_path / "w.db")
    project_id, ids = _project_with_tasks(store)
    sql_seen: list[str] = []
    conn = store._connection()
    conn.exec_trace = lambda cursor, sql, bindings: sql_seen.append(sql) or True
    with store.read() as tx:
        page = tx.list_titled("task", project_id, "WRITE\u00a0the SPEC", fields=("title",))
        statement = next(sql for sql in sql_seen if "title" in sql and "tasks" in sql)
        plan = " ".join(str(r[-1]) for r in tx._fetch(f"EXPLAIN QUERY PLAN {statement}", (project_id, "x", 20)))
    conn.exec_trace = None
    assert [row["id"] for row in page.rows] == [ids[title] for title in TITLES[:5]]
    assert statement.count("replace(") == len(TITLE_SPACES) + 1  # the column's expression only, not the parameter's
    assert "tasks_by_project_title_key" in plan, plan
    store.close()


def _sqlite_key(title: str) -> str:
    conn = apsw.Connection(":memory:")
    try:
        return conn.execute(f"SELECT {title_key_sql('?')}", (title,)).fetchall()[0][0]
    finally:
        conn.close()
