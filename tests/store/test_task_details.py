"""task_details, the one read behind a task's get, on each backend: a missing task, links whose documents
were deleted, and a task with many links; read plainly and while observing (the dry-run path), the same answer."""

from __future__ import annotations

import pytest
from store_testing import API_SPEC, DEPLOY_NOTES, P1, TASK_HOSTING, TASK_SPEC, uid

from opgate.core.handlers._summaries import summary_shape
from opgate.core.store import NotFound

SHAPE = summary_shape("document")


def _both_ways(store, task_id):
    with store.read(observe=False) as tx:
        plain = tx.task_details(task_id, SHAPE)
    with store.read() as tx:
        observed = tx.task_details(task_id, SHAPE)
    assert plain == observed
    return plain


def test_a_missing_task_is_not_found_both_ways(ws):
    for observe in (False, True):
        with ws.read(observe=observe) as tx, pytest.raises(NotFound):
            tx.task_details(uid("20000000", 99), SHAPE)


def test_a_deleted_document_leaves_no_link_behind(ws):
    before = _both_ways(ws, TASK_SPEC)
    assert [d["id"] for d in before[1]] == [API_SPEC, DEPLOY_NOTES]
    with ws.write() as tx:
        tx.delete("document", DEPLOY_NOTES)
    task, documents, _ = _both_ways(ws, TASK_SPEC)
    assert task["id"] == TASK_SPEC and [d["id"] for d in documents] == [API_SPEC]


def test_many_links_come_back_whole_and_in_link_order(ws):
    count = 1_500
    with ws.write() as tx:
        made = [tx.insert("document", {"project_id": P1, "title": f"Note {n}", "type_key": "note"})["id"] for n in range(count)]
        for n, document_id in enumerate(made):
            tx.link_task_document(TASK_HOSTING, document_id, "reference", created_at=f"2026-01-01T00:00:{n % 60:02d}Z")
    _, documents, _ = _both_ways(ws, TASK_HOSTING)
    assert len(documents) == count
    with ws.read() as tx:
        assert [d["id"] for d in documents] == [d["id"] for d in tx.task_documents(TASK_HOSTING)]
