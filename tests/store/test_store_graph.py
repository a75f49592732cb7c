"""Edges and task-document links."""

from __future__ import annotations

import pytest
from store_testing import API_SPEC, DEPLOY_NOTES, GOAL, P1, P2, TASK_BLOG, TASK_HOSTING, TASK_SPEC, uid

from opgate.core.store import Conflict, InvalidValue, NotFound


def test_edges_of_by_direction_and_rel(ws):
    with ws.read() as tx:
        assert {e["rel"] for e in tx.edges_of(TASK_SPEC)} == {"relates_to", "implements"}
        assert [e["rel"] for e in tx.edges_of(TASK_SPEC, direction="outgoing")] == ["implements"]
        assert [e["rel"] for e in tx.edges_of(TASK_SPEC, direction="incoming")] == ["relates_to"]
        assert tx.edges_of(TASK_SPEC, rel="blocks") == []
        assert len(tx.edges_of(TASK_SPEC, limit=1)) == 1
        assert tx.edges_of(uid("80000000", 2))[0]["props"] == {"note": "watch"}
        with pytest.raises(InvalidValue):
            tx.edges_of(TASK_SPEC, direction="sideways")


def test_add_find_and_remove_an_edge(ws):
    with ws.write() as tx:
        edge = tx.add_edge("task", TASK_SPEC, "goal", GOAL, "supports", {"weight": 2})
        assert tx.find_edge(TASK_SPEC, GOAL, "supports") == edge
        assert tx.get_edge(edge["id"]) == edge
        with pytest.raises(Conflict) as caught:
            tx.add_edge("task", TASK_SPEC, "goal", GOAL, "supports")
        assert caught.value.details["edge_id"] == edge["id"]
        assert tx.remove_edge(edge["id"]) == edge
        with pytest.raises(NotFound):
            tx.get_edge(edge["id"])


@pytest.mark.parametrize(("args", "error"), [
    (("task", TASK_SPEC, "goal", GOAL, "likes"), InvalidValue),
    (("template", uid("f0000000", 1), "goal", GOAL, "supports"), InvalidValue),
    (("task", TASK_SPEC, "goal", uid("30000000", 9), "supports"), NotFound),
    (("goal", TASK_SPEC, "goal", GOAL, "supports"), NotFound),  # wrong kind for the id
    (("task", TASK_SPEC, "task", TASK_SPEC, "blocks"), Conflict),
])
def test_bad_edges_are_refused(ws, args, error):
    with pytest.raises(error), ws.write() as tx:
        tx.add_edge(*args)


def test_project_edges(ws):
    with ws.read() as tx:
        assert len(tx.project_edges(P1)) == 4
        assert tx.project_edges(P2) == []


def test_task_documents(ws):
    with ws.read() as tx:
        docs = tx.task_documents(TASK_SPEC)
        assert [(d["id"], d["role"]) for d in docs] == [(API_SPEC, "output"), (DEPLOY_NOTES, "reference")]
        assert docs[0]["title"] == "API Spec" and docs[0]["linked_at"]
        assert [d["id"] for d in tx.task_documents(TASK_SPEC, "reference")] == [DEPLOY_NOTES]
        assert tx.task_documents(TASK_HOSTING) == []
        with pytest.raises(NotFound):
            tx.task_documents(uid("20000000", 99))


def test_link_and_unlink(ws):
    with ws.write() as tx:
        link = tx.link_task_document(TASK_HOSTING, DEPLOY_NOTES)
        assert link["role"] == "reference"
        with pytest.raises(Conflict):
            tx.link_task_document(TASK_HOSTING, DEPLOY_NOTES, "input")
        with pytest.raises(InvalidValue):
            tx.link_task_document(TASK_BLOG, API_SPEC, "homework")
        assert tx.unlink_task_document(TASK_HOSTING, DEPLOY_NOTES) == link
        with pytest.raises(NotFound):
            tx.unlink_task_document(TASK_HOSTING, DEPLOY_NOTES)
