"""``tx.list_titled``: titles equal but for ASCII case and spaces, found through an index on both backends."""

from __future__ import annotations

from opgate.core.store import OntologyStore
from opgate.core.store._sqlite_entities import title_key_sql

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
