"""Create, read, update and list every kind, with defaults and checks."""

from __future__ import annotations

import pytest
from store_testing import P1, P2, PLAN, TASK_SPEC, uid

from opgate.core.store import ENTITY_KINDS, KINDS, Conflict, InvalidValue, NotFound

MINIMAL = {
    "project": {"name": "P"},
    "task": {"title": "T"},
    "goal": {"name": "G"},
    "plan": {"name": "Pl"},
    "document": {"title": "D"},
    "output": {"name": "O"},
    "milestone": {"title": "M"},
    "risk": {"title": "R"},
    "decision": {"title": "Dc"},
    "requirement": {"text": "Rq"},
    "template": {"scope": "task", "type_key": "task.x", "name": "Tp"},
}


def _fields(kind: str, project_id: str) -> dict:
    fields = dict(MINIMAL[kind])
    if KINDS[kind].in_project:
        fields["project_id"] = project_id
    return fields


@pytest.mark.parametrize("kind", list(MINIMAL))
def test_insert_get_update_every_kind(store, kind):
    with store.write() as tx:
        project = tx.insert("project", {"name": "Home"})
        row = tx.insert(kind, _fields(kind, project["id"]))
    assert len(row["id"]) == 36 and row["created_at"] == row["updated_at"]
    assert row["props"] == {}
    state_field = KINDS[kind].field_map.get("state_key") or KINDS[kind].field_map["status"]
    assert row[state_field.name] == state_field.enum[0]
    with store.read() as tx:
        assert tx.get(kind, row["id"]) == row
        assert tx.kind_of(row["id"]) == kind
        assert tx.get_entity(row["id"]) == (kind, row)
    display = KINDS[kind].display
    with store.write() as tx:
        before, after = tx.update(kind, row["id"], {display: "Renamed", "props": {"a": [1]}})
    assert before == row
    assert after[display] == "Renamed" and after["props"] == {"a": [1]}
    with store.read() as tx:
        assert tx.get(kind, row["id"]) == after


def test_defaults(store):
    with store.write() as tx:
        project = tx.insert("project", {"name": "P"})
        task = tx.insert("task", {"project_id": project["id"], "title": "T"})
        doc = tx.insert("document", {"project_id": project["id"], "title": "D"})
        req = tx.insert("requirement", {"project_id": project["id"], "text": "R"})
    assert project["state_key"] == "draft"
    assert (task["state_key"], task["priority"]) == ("todo", 3)
    assert (doc["type_key"], doc["state_key"], doc["parent_id"], doc["position"]) == (
        "document.note", "draft", None, 0)
    assert req["state_key"] == "draft"


@pytest.mark.parametrize(("kind", "fields", "field"), [
    ("task", {"title": "T"}, "project_id"),
    ("task", {"project_id": "x", "title": "T", "state_key": "doing"}, "state_key"),
    ("task", {"project_id": "x", "title": "T", "priority": 9}, "priority"),
    ("task", {"project_id": "x", "title": "T", "colour": "red"}, "colour"),
    ("risk", {"project_id": "x", "title": "R", "probability": "critical"}, "probability"),
    ("document", {"project_id": "x", "title": "D", "type_key": "Not A Key"}, "type_key"),
    ("project", {"name": "P", "props": []}, "props"),
])
def test_invalid_values_are_named(store, kind, fields, field):
    with pytest.raises(InvalidValue) as caught, store.write() as tx:
        tx.insert(kind, fields)
    assert caught.value.field == field


def test_references_must_exist_and_share_the_project(ws):
    with pytest.raises(NotFound) as caught, ws.write() as tx:
        tx.insert("task", {"project_id": uid("10000000", 99), "title": "T"})
    assert caught.value.kind == "project"
    with pytest.raises(Conflict), ws.write() as tx:
        tx.insert("task", {"project_id": P2, "title": "T", "plan_id": PLAN})
    with pytest.raises(Conflict), ws.write() as tx:
        tx.update("task", uid("20000000", 4), {"goal_id": uid("30000000", 1)})


def test_update_refuses_store_fields_and_project_moves(ws):
    for changes in ({"id": "x"}, {"created_at": "x"}, {"project_id": P2}, {"state_key": None}):
        with pytest.raises(InvalidValue), ws.write() as tx:
            tx.update("task", TASK_SPEC, changes)


def test_update_without_a_difference_writes_nothing(ws):
    with ws.write() as tx:
        before, after = tx.update("task", TASK_SPEC, {"priority": 5})
        assert before == after
        assert not tx.changes


def test_get_missing_raises_not_found(store):
    with store.read() as tx:
        with pytest.raises(NotFound) as caught:
            tx.get("task", "nope")
        assert (caught.value.kind, caught.value.id) == ("task", "nope")
        assert tx.find("task", "nope") is None and tx.kind_of("nope") is None
        with pytest.raises(NotFound):
            tx.get_entity("nope")
        with pytest.raises(InvalidValue):
            tx.get("tasks", "x")


def test_duplicate_id_is_a_conflict(ws):
    with pytest.raises(Conflict), ws.write() as tx:
        tx.insert("task", {"id": TASK_SPEC, "project_id": P1, "title": "again"})


def test_list_filters_paging_and_total(ws):
    with ws.read() as tx:
        page = tx.list("task", {"project_id": P1})
        assert page.total == 3 and len(page.rows) == 3
        rows, total = tx.list("task", {"project_id": P1, "state_key": "todo"}, limit=1, offset=1)
        assert total == 2 and len(rows) == 1
        assert tx.list("task", {"state_key": ["todo", "blocked"]}).total == 3
        assert tx.list("task", {"plan_id": None}).total == 2
        assert tx.list("task", {"state_key": []}).total == 0
        by_priority = tx.list("task", {"project_id": P1}, order="-priority").rows
        assert [t["priority"] for t in by_priority] == [5, 3, 2]
        assert tx.list("risk", {"impact": "high"}).total == 1
        assert tx.list("template", {"scope": "document"}).rows[0]["name"] == "Technical spec"
        assert tx.list("task", limit=0).rows == []
        with pytest.raises(InvalidValue):
            tx.list("task", {"colour": "red"})
        with pytest.raises(InvalidValue):
            tx.list("task", order="colour")


def test_every_entity_kind_is_in_the_workspace(ws):
    with ws.read() as tx:
        for kind in ENTITY_KINDS:
            assert tx.list(kind).total >= 1, kind


def test_transaction_ends_with_its_block(store):
    with store.read() as tx:
        pass
    with pytest.raises(Exception, match="has ended"):
        tx.list("task")
    with store.write() as outer, pytest.raises(Exception, match="already open"):
        with store.read():
            pass
    assert outer.changes.to_dict()["created"] == []


def test_a_statement_that_fails_undoes_only_itself(store):
    """As in SQLite, a refused statement leaves the transaction usable (savepoints on PostgreSQL)."""
    import pytest

    from opgate.core.store import Conflict

    with store.write() as tx:
        project = tx.insert("project", {"name": "Before the failure"})
        tx._run("INSERT INTO store_meta (key, value) VALUES ('probe', 'one')")
        with pytest.raises(Conflict):
            tx._run("INSERT INTO store_meta (key, value) VALUES ('probe', 'two')")
        tx.insert("task", {"project_id": project["id"], "title": "After the failure"})
    with store.read() as tx:
        assert [t["title"] for t in tx.list("task").rows] == ["After the failure"]
        assert tx._fetch("SELECT value FROM store_meta WHERE key = 'probe'") == [("one",)]


def test_text_postgres_cannot_hold_is_an_invalid_value(store, backend):
    import pytest

    from opgate.core.store import InvalidValue

    with store.write() as tx:
        project = tx.insert("project", {"name": "NUL"})
        if backend == "postgres":
            with pytest.raises(InvalidValue, match="NUL"):
                tx.insert("task", {"project_id": project["id"], "title": "a\x00b"})
        tx.insert("task", {"project_id": project["id"], "title": "plain"})
    with store.read() as tx:
        assert "plain" in [t["title"] for t in tx.list("task").rows]
