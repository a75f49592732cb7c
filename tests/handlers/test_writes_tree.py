"""Moving documents in the tree, and giving tasks documents."""

from __future__ import annotations

import pytest
from test_writes_harness import children, demo, doc, project, row, run, task  # noqa: F401

from opgate.core.exec._errors import InvalidArguments, NotFoundError
from opgate.core.store import Conflict

MOVE = "onto.document.tree.move"
ATTACH = "onto.task.doc.create_or_attach"


def test_move_under_a_new_parent_goes_last_and_closes_the_gap(demo):
    ran = run(demo, MOVE, {"project_id": project(1), "document_id": doc(2), "new_parent_id": doc(1)})
    assert ran.result["old_parent_id"] is None and ran.result["new_parent_id"] == doc(1)
    assert children(demo, project(1), doc(1)) == [doc(3), doc(4), doc(2)]
    assert ran.result["position"] == 2 == ran.result["document"]["position"]
    assert [row(demo, "document", d)["position"] for d in children(demo, project(1), None)] == [0, 1, 2]


def test_move_with_a_position_shifts_later_siblings(demo):
    run(demo, MOVE, {"project_id": project(2), "document_id": doc(19), "new_parent_id": doc(16), "position": 0})
    assert children(demo, project(2), doc(16)) == [doc(19), doc(17)]


def test_leaving_out_new_parent_reorders_among_the_same_siblings(demo):
    roots = children(demo, project(1), None)
    ran = run(demo, MOVE, {"project_id": project(1), "document_id": roots[-1], "position": 0})
    assert children(demo, project(1), None) == [roots[-1], *roots[:-1]]
    assert ran.result["old_parent_id"] is None is ran.result["new_parent_id"]


def test_leaving_out_both_moves_the_document_last(demo):
    roots = children(demo, project(1), None)
    run(demo, MOVE, {"project_id": project(1), "document_id": roots[0]})
    assert children(demo, project(1), None) == [*roots[1:], roots[0]]


def test_null_parent_moves_to_the_root(demo):
    ran = run(demo, MOVE, {"project_id": project(1), "document_id": doc(3), "new_parent_id": None})
    assert ran.result["old_parent_id"] == doc(1) and ran.result["new_parent_id"] is None
    assert children(demo, project(1), None)[-1] == doc(3)


def test_moving_a_folder_under_its_own_descendant_is_a_cycle(demo):
    before = demo.dump()
    with pytest.raises(Conflict, match="cycle"):
        run(demo, MOVE, {"project_id": project(1), "document_id": doc(1), "new_parent_id": doc(5)})
    with pytest.raises(Conflict, match="cycle"):
        run(demo, MOVE, {"project_id": project(1), "document_id": doc(1), "new_parent_id": doc(1)})
    assert demo.dump() == before


def test_move_refuses_documents_and_parents_of_another_project(demo):
    with pytest.raises(InvalidArguments) as caught:
        run(demo, MOVE, {"project_id": project(1), "document_id": doc(10), "new_parent_id": doc(16)})
    assert {e["field"] for e in caught.value.field_errors} == {"args.document_id", "args.new_parent_id"}
    with pytest.raises(InvalidArguments):
        run(demo, MOVE, {"project_id": project(1), "document_id": doc(2), "new_parent_id": doc(16)})


def test_attach_an_existing_document(demo):
    ran = run(demo, ATTACH, {"task_id": task(1), "document_id": doc(3)})
    assert ran.result["created"] is False and ran.result["document"] == row(demo, "document", doc(3))
    assert ran.result["link"]["role"] == "reference"
    with demo.read() as tx:
        assert doc(3) in [d["id"] for d in tx.task_documents(task(1))]


def test_attach_twice_is_a_conflict(demo):
    run(demo, ATTACH, {"task_id": task(1), "document_id": doc(3)})
    with pytest.raises(Conflict):
        run(demo, ATTACH, {"task_id": task(1), "document_id": doc(3)})


def test_create_and_attach_in_the_task_project(demo):
    ran = run(demo, ATTACH, {"task_id": task(12), "title": "Harbour Sources", "type_key": "document.research",
                             "content": "- archive", "parent_id": doc(16), "role": "scratch"})
    new = ran.result["document"]
    assert ran.result["created"] is True
    assert (new["project_id"], new["parent_id"], new["type_key"]) == (project(2), doc(16), "document.research")
    assert ran.result["link"] == {"task_id": task(12), "document_id": new["id"], "role": "scratch",
                                  "created_at": ran.result["link"]["created_at"]}
    assert children(demo, project(2), doc(16))[-1] == new["id"]


def test_create_without_parent_goes_to_the_root(demo):
    ran = run(demo, ATTACH, {"task_id": task(1), "title": "Notes"})
    assert ran.result["document"]["parent_id"] is None
    assert ran.result["document"]["type_key"] == "document.note"


@pytest.mark.parametrize("args", [
    {"task_id": task(1)},
    {"task_id": task(1), "document_id": doc(3), "title": "x"},
    {"task_id": task(1), "document_id": doc(3), "content": "x"},
])
def test_exactly_one_of_document_id_or_title(demo, args):
    with pytest.raises(InvalidArguments):
        run(demo, ATTACH, args)


def test_documents_of_another_project_are_refused(demo):
    before = demo.dump()
    with pytest.raises(InvalidArguments) as caught:
        run(demo, ATTACH, {"task_id": task(1), "document_id": doc(10)})
    assert caught.value.field_errors[0]["code"] == "other_project"
    with pytest.raises(InvalidArguments):
        run(demo, ATTACH, {"task_id": task(1), "title": "x", "parent_id": doc(10)})
    with pytest.raises(NotFoundError):
        run(demo, ATTACH, {"task_id": "20000000-0000-4000-8000-000000000099", "title": "x"})
    assert demo.dump() == before
