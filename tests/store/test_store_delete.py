"""Deletion rules of docs/ontology.md."""

from __future__ import annotations

import pytest
from store_testing import (API_SPEC, DEPLOY_NOTES, ENGINEERING, GOAL, MARKETING, MILESTONE, P1, P2, PLAN,
                      TASK_BLOG, TASK_HOSTING, TASK_SPEC, uid)

from opgate.core.store import Conflict, NotFound


def test_deleting_a_task_removes_its_links_and_edges(ws):
    with ws.write() as tx:
        removal = tx.delete("task", TASK_SPEC)
    assert removal.row["id"] == TASK_SPEC
    assert {link["document_id"] for link in removal.links_removed} == {API_SPEC, DEPLOY_NOTES}
    assert {e["id"] for e in removal.edges_removed} == {uid("e0000000", 2), uid("e0000000", 3)}
    with ws.read() as tx:
        assert tx.find("task", TASK_SPEC) is None
        assert tx.edges_of(TASK_SPEC) == []
        assert tx.get("document", API_SPEC)  # the documents themselves stay


@pytest.mark.parametrize(("kind", "id", "field", "tasks"), [
    ("goal", GOAL, "goal_id", {TASK_SPEC, TASK_HOSTING}),
    ("plan", PLAN, "plan_id", {TASK_SPEC, TASK_BLOG}),
    ("milestone", MILESTONE, "supporting_milestone_id", {TASK_SPEC, TASK_BLOG}),
])
def test_deleting_what_tasks_serve_clears_their_reference(ws, kind, id, field, tasks):
    with ws.write() as tx:
        tx.add_edge(kind, id, "project", P1, "supports")
        removal = tx.delete(kind, id)
    assert {c["id"] for c in removal.cleared} == tasks
    assert {c["field"] for c in removal.cleared} == {field}
    assert len(removal.edges_removed) == 1
    with ws.read() as tx:
        assert all(tx.get("task", t)[field] is None for t in tasks)


def test_document_with_children_needs_cascade(ws):
    with pytest.raises(Conflict, match="cascade"), ws.write() as tx:
        tx.delete("document", ENGINEERING)
    with ws.write() as tx:
        removal = tx.delete("document", ENGINEERING, cascade=True)
    assert [d["id"] for d in removal.deleted][-1] == ENGINEERING  # children first
    assert {d["id"] for d in removal.deleted} == {ENGINEERING, API_SPEC, DEPLOY_NOTES}
    assert {e["id"] for e in removal.edges_removed} == {uid("e0000000", 4)}
    assert len(removal.links_removed) == 2
    with ws.read() as tx:
        roots = tx.document_children(P1, None)
        assert [(r["id"], r["position"]) for r in roots] == [(MARKETING, 0)]  # renumbered


def test_deleting_a_leaf_document_needs_no_cascade(ws):
    with ws.write() as tx:
        tx.delete("document", API_SPEC)
    with ws.read() as tx:
        assert [(r["id"], r["position"]) for r in tx.document_children(P1, ENGINEERING)] == [(DEPLOY_NOTES, 0)]
        assert [d["id"] for d in tx.task_documents(TASK_SPEC)] == [DEPLOY_NOTES]


def test_deleting_a_project_needs_cascade_and_takes_everything(ws):
    with pytest.raises(Conflict), ws.write() as tx:
        tx.delete("project", P1)
    with ws.write() as tx:
        removal = tx.delete("project", P1, cascade=True)
    assert removal.deleted[-1]["id"] == P1
    dump = ws.dump()
    assert dump["edges"] == [] and dump["task_documents"] == []
    assert [p["id"] for p in dump["projects"]] == [P2]
    assert all(row["project_id"] == P2 for kind in ("tasks", "documents") for row in dump[kind])


def test_deleting_a_missing_entity_is_not_found(ws):
    with pytest.raises(NotFound), ws.write() as tx:
        tx.delete("risk", uid("80000000", 99))
