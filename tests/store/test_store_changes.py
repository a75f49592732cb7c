"""ChangeSet contents, dry-run rollback, and the state digest."""

from __future__ import annotations

import json

import pytest
from store_testing import API_SPEC, ENGINEERING, GOAL, P1, TASK_BLOG, TASK_HOSTING, TASK_SPEC, uid

from opgate.core.store import Conflict


def test_changes_for_insert_update_delete_and_edges(ws):
    with ws.write() as tx:
        task = tx.insert("task", {"project_id": P1, "title": "New"})
        tx.update("task", TASK_HOSTING, {"state_key": "done", "priority": 4})
        edge = tx.add_edge("task", task["id"], "goal", GOAL, "supports")
        tx.remove_edge(uid("e0000000", 1))
        tx.link_task_document(task["id"], API_SPEC, "input")
        tx.unlink_task_document(TASK_BLOG, uid("50000000", 5))
        tx.delete("risk", uid("80000000", 1))
        report = tx.changes.to_dict()
    json.dumps(report)  # serialisable as it is
    assert [(c["kind"], c["id"]) for c in report["created"]] == [("task", task["id"])]
    assert report["created"][0]["row"] == task
    assert report["updated"] == [{"kind": "task", "id": TASK_HOSTING, "fields": {
        "priority": {"before": 3, "after": 4}, "state_key": {"before": "todo", "after": "done"}}}]
    assert [d["id"] for d in report["deleted"]] == [uid("80000000", 1)]
    assert report["edges_added"] == [edge]
    assert [e["id"] for e in report["edges_removed"]] == [uid("e0000000", 1)]
    assert [(x["task_id"], x["role"]) for x in report["links_added"]] == [(task["id"], "input")]
    assert [x["task_id"] for x in report["links_removed"]] == [TASK_BLOG]


def test_changes_are_net(ws):
    with ws.write() as tx:
        temp = tx.insert("goal", {"project_id": P1, "name": "Temp"})
        tx.update("goal", temp["id"], {"name": "Temp 2"})
        kept = tx.insert("goal", {"project_id": P1, "name": "Kept"})
        tx.update("goal", kept["id"], {"name": "Kept 2"})
        tx.delete("goal", temp["id"])
        tx.update("task", TASK_SPEC, {"priority": 1})
        tx.update("task", TASK_SPEC, {"priority": 5})  # back where it was
        tx.update("task", TASK_HOSTING, {"title": "Renamed"})
        tx.delete("task", TASK_HOSTING)
        report = tx.changes.to_dict()
    assert [c["row"]["name"] for c in report["created"]] == ["Kept 2"]
    assert report["updated"] == []
    deleted = {d["id"]: d["row"] for d in report["deleted"]}
    assert deleted[TASK_HOSTING]["title"] == "Set up hosting"  # as it was before the transaction


def test_dry_run_rolls_back_but_reports(ws):
    before = ws.dump()
    with ws.write(dry_run=True) as tx:
        tx.insert("task", {"project_id": P1, "title": "Ghost"})
        tx.delete("document", ENGINEERING, cascade=True)
        tx.move_document(uid("50000000", 5), None, 0)
    assert len(tx.changes.to_dict()["deleted"]) == 3
    assert tx.changes
    assert ws.dump() == before


def test_explicit_rollback_and_failures_leave_nothing(ws):
    before = ws.dump()
    with ws.write() as tx:
        tx.update("project", P1, {"name": "Changed"})
        tx.rollback()
    assert tx.changes.to_dict()["updated"][0]["fields"]["name"]["after"] == "Changed"
    with pytest.raises(Conflict), ws.write() as tx:
        tx.update("project", P1, {"name": "Changed"})
        tx.add_edge("task", TASK_HOSTING, "task", TASK_BLOG, "blocks")  # already exists
    assert ws.dump() == before


def _preview(store):
    with store.write(dry_run=True) as tx:
        tx.get("task", TASK_SPEC)
        tx.list("task", {"project_id": P1}, limit=2)
        tx.edges_of(TASK_SPEC)
        tx.insert("task", {"project_id": P1, "title": "Preview"})
        tx.list("task", {"project_id": P1})  # now includes the new row, which must not count
        tx.update("task", TASK_HOSTING, {"state_key": "done"})
        tx.get("task", TASK_HOSTING)  # its own write: not part of the digest
        return tx.state_digest()


def test_digest_is_stable_over_unchanged_data(ws):
    assert _preview(ws) == _preview(ws)
    with ws.read() as tx:
        tx.list("task", {"project_id": P1}, limit=2)
        partial = tx.state_digest()
    assert partial != _preview(ws)  # different reads, different digest


@pytest.mark.parametrize(("change", "noticed"), [
    (lambda tx: tx.update("task", TASK_SPEC, {"priority": 1}), True),  # a row read by get
    (lambda tx: tx.update("task", TASK_HOSTING, {"priority": 1}), True),  # read before its own write
    (lambda tx: tx.insert("task", {"project_id": P1, "title": "Appeared"}), True),  # list total
    (lambda tx: tx.update("requirement", uid("a0000000", 1), {"priority": 1}), False),  # never read
])
def test_digest_follows_the_rows_it_read(ws, change, noticed):
    first = _preview(ws)
    with ws.write() as tx:
        change(tx)
    assert (_preview(ws) != first) is noticed


def test_digest_sees_edge_changes(ws):
    first = _preview(ws)
    with ws.write() as tx:
        tx.add_edge("task", TASK_SPEC, "goal", GOAL, "supports")
    assert _preview(ws) != first


def test_a_query_about_a_row_written_here_is_left_out_of_the_digest(ws):
    def preview():
        with ws.write(dry_run=True) as tx:
            project = tx.insert("project", {"name": "Fresh"})
            tx.insert("document", {"project_id": project["id"], "title": "First"})  # counts its new siblings
            tx.list("task", {"project_id": project["id"]})
            return tx.state_digest()

    assert preview() == preview()
