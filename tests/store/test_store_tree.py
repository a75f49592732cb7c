"""The document tree: reads, moves, positions, cycles."""

from __future__ import annotations

import pytest
from store_testing import API_SPEC, DEPLOY_NOTES, ENGINEERING, MARKETING, P1, P2, uid

from opgate.core.store import Conflict, InvalidValue, NotFound

ANNOUNCEMENT = uid("50000000", 5)


def _children(tx, parent):
    return [(r["id"], r["position"]) for r in tx.document_children(P1, parent)]


def test_tree_reads(ws):
    with ws.read() as tx:
        assert [r["title"] for r in tx.document_path(API_SPEC)] == ["Engineering", "API Spec"]
        assert [r["id"] for r in tx.document_subtree(ENGINEERING)] == [ENGINEERING, API_SPEC, DEPLOY_NOTES]
        tree = tx.document_tree(P1)
        assert [n["title"] for n in tree] == ["Engineering", "Marketing"]
        assert [c["title"] for c in tree[0]["children"]] == ["API Spec", "Deployment notes"]
        assert all(n["children"] == [] for n in tx.document_tree(P1, max_depth=0))
        assert [n["id"] for n in tx.document_tree(P1, root_id=MARKETING)] == [MARKETING]
        with pytest.raises(NotFound):
            tx.document_tree(P2, root_id=MARKETING)


def test_insert_with_position_shifts_later_siblings(ws):
    with ws.write() as tx:
        new = tx.insert("document", {"project_id": P1, "title": "Intro", "parent_id": ENGINEERING, "position": 0})
        appended = tx.insert("document", {"project_id": P1, "title": "Tail", "parent_id": ENGINEERING})
        far = tx.insert("document", {"project_id": P1, "title": "Far", "parent_id": ENGINEERING, "position": 99})
    with ws.read() as tx:
        assert _children(tx, ENGINEERING) == [
            (new["id"], 0), (API_SPEC, 1), (DEPLOY_NOTES, 2), (appended["id"], 3), (far["id"], 4)]


def test_move_to_another_parent_at_a_position(ws):
    with ws.write() as tx:
        before, after = tx.move_document(DEPLOY_NOTES, MARKETING, 0)
    assert (before["parent_id"], after["parent_id"], after["position"]) == (ENGINEERING, MARKETING, 0)
    with ws.read() as tx:
        assert _children(tx, MARKETING) == [(DEPLOY_NOTES, 0), (ANNOUNCEMENT, 1)]
        assert _children(tx, ENGINEERING) == [(API_SPEC, 0)]


def test_move_within_siblings_and_to_the_root(ws):
    with ws.write() as tx:
        tx.move_document(DEPLOY_NOTES, ENGINEERING, 0)
        tx.move_document(API_SPEC, None)
    with ws.read() as tx:
        assert _children(tx, ENGINEERING) == [(DEPLOY_NOTES, 0)]
        assert _children(tx, None) == [(ENGINEERING, 0), (MARKETING, 1), (API_SPEC, 2)]


def test_update_of_parent_goes_through_the_move(ws):
    with ws.write() as tx:
        before, after = tx.update("document", ANNOUNCEMENT, {"parent_id": ENGINEERING, "position": 1, "title": "Blog"})
    assert (after["parent_id"], after["position"], after["title"]) == (ENGINEERING, 1, "Blog")
    with ws.read() as tx:
        assert _children(tx, ENGINEERING) == [(API_SPEC, 0), (ANNOUNCEMENT, 1), (DEPLOY_NOTES, 2)]


@pytest.mark.parametrize("target", [ENGINEERING, API_SPEC])
def test_moves_into_own_subtree_are_cycles(ws, target):
    with pytest.raises(Conflict, match="cycle"), ws.write() as tx:
        tx.move_document(ENGINEERING, target)


def test_parent_must_be_a_document_of_the_same_project(ws):
    with pytest.raises(Conflict), ws.write() as tx:
        tx.move_document(uid("50000000", 6), ENGINEERING)
    with pytest.raises(Conflict), ws.write() as tx:
        tx.insert("document", {"project_id": P2, "title": "x", "parent_id": ENGINEERING})
    with pytest.raises(NotFound), ws.write() as tx:
        tx.move_document(API_SPEC, uid("50000000", 99))
    with pytest.raises(InvalidValue), ws.write() as tx:
        tx.move_document(API_SPEC, MARKETING, -1)
