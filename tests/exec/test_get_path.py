"""A plain get takes a short path: the store reads a task's parts in one method, and the get names its ids.

``meta.entities`` of a get is what the handler names (``add_row_ids``), not
a walk of the result; a dry-run still reads whole rows through the older
methods and is walked. Both must give the same bytes and the same ids, on
both backends, for rows whose ids hide in ``props``, in edges and in linked
documents.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from dry_run_pairs import plain_and_dry

from opgate.core import Gateway
from opgate.core.exec import Handler, OpError
from opgate.core.exec._entity_ids import MAX_ENTITIES, add_row_ids, entities_touched, row_ids_plan
from opgate.core.handlers._summaries import PLURALS, summary_shape
from opgate.core.settings import GatewaySettings
from opgate.core.store import ENTITY_KINDS, NotFound

PROJECT = "10000000-0000-4000-8000-000000000001"  # the demo workspace's first project
NO_TASK = "10000000-0000-4000-8000-0000000000ff"


def _same_answer(gateway: Gateway, op: str, args: dict) -> dict:
    plain, dry = plain_and_dry(gateway, op, args)
    assert json.dumps(plain["result"]) == json.dumps(dry["result"])
    assert plain["meta"]["entities"] == entities_touched(plain["result"]) == dry["meta"]["entities"]
    return plain


@pytest.mark.parametrize("kind", ENTITY_KINDS)
def test_every_kinds_get_names_the_ids_the_walk_finds(store, kind):
    gateway = Gateway(store=store, call_log=False)
    page = gateway.exec(f"onto.{kind}.list", {"limit": 20})["result"][PLURALS[kind]]
    assert page, f"the demo workspace has {PLURALS[kind]}"
    for item in page:
        _same_answer(gateway, f"onto.{kind}.get", {f"{kind}_id": item["id"]})


def _busy_task(store) -> str:
    """A task whose ids hide everywhere: props (nested, numbered, blank), 3 documents linked in one second, 40 edges."""
    with store.write() as tx:
        task = tx.insert("task", {
            "project_id": PROJECT, "title": "Busy task",
            "props": {"owner_id": "u-1", "blank_id": " ", "refs": [{"id": "r-1"}, {"id": 7}, {"id": True}],
                      "deep": {"rows": [{"parentId": "p-9"}]}, "note": "not an id"},
        })["id"]
        documents = [tx.insert("document", {"project_id": PROJECT, "title": f"Doc {n}", "content": "x" * 500})["id"] for n in range(3)]
        # Linked in one second: only the order of linking (rowid, seq on PostgreSQL) tells them apart.
        for document in reversed(documents):
            tx.link_task_document(task, document, "input", created_at="2026-01-01T00:00:00Z")
        others = [tx.insert("goal", {"project_id": PROJECT, "name": f"Goal {n}"})["id"] for n in range(20)]
        for n, goal in enumerate(others):
            tx.add_edge("task", task, "goal", goal, "supports", {"why_id": f"w-{n}"}, created_at="2026-01-01T00:00:00Z")
            tx.add_edge("goal", goal, "task", task, "blocks")
    return task


def test_a_task_with_ids_in_props_documents_and_edges_names_them_as_the_walk_does(store):
    task = _busy_task(store)
    answer = _same_answer(Gateway(store=store, call_log=False), "onto.task.get", {"task_id": task})
    result = answer["result"]
    assert [document["title"] for document in result["documents"]] == ["Doc 2", "Doc 1", "Doc 0"]
    assert len(result["edges"]) == 40 and "truncated" not in answer["meta"]
    ids = answer["meta"]["entities"]
    assert len(ids) == MAX_ENTITIES and ids[:6] == [task, PROJECT, "p-9", "u-1", "r-1", "7"]  # props come back with sorted keys


def test_task_details_reads_the_same_on_both_kinds_of_read(store):
    task = _busy_task(store)
    shape = summary_shape("document")
    with store.read() as observed:
        expected = observed.task_details(task, shape)
        assert observed.state_digest()
    with store.read(observe=False) as plain:
        assert plain.task_details(task, shape) == expected
    assert list(expected[1][0]) == ["id", "title", "state", "type", "role"]


def test_a_missing_task_is_not_found_on_both_paths(store):
    for observe in (True, False):
        with store.read(observe=observe) as tx, pytest.raises(NotFound):
            tx.task_details(NO_TASK, summary_shape("document"))
    gateway = Gateway(store=store, call_log=False)
    for dry_run in (False, True):
        answer = gateway.exec("onto.task.get", {"task_id": NO_TASK}, dry_run=dry_run)
        assert answer["error"]["code"] == "NOT_FOUND" and "entities" not in answer.get("meta", {}), answer


ODD_ROWS: list[dict[str, Any]] = [
    {"id": "a", "title": "t", "owner_id": None, "parent_id": "", "Id": "x"},
    {"id": 12, "count_id": True, "ratio_id": 1.5, "props": {"id": "in-props", "list": ["a", "b"]}},
    {"id": "b", "props": "a string", "meta_id": {"id": "nested"}, "linkId": " c "},
    {"id": "c", "props": [{"task_id": "d"}, {"task_id": "a"}], "props_id": "e"},
    {"id": "f", "props": None, "tags_id": ["g", {"id": "h"}]},
]


# Text columns before JSON ones (the store's kinds), where add_row_ids reads the text columns at once and
# skips a flat props whose keys name no id: blank and padded ids, ids in props, a props that only looks flat.
ODD_ROWS += [
    {"id": "t1", "project_id": "  ", "plan_id": None, "goal_id": "", "owner_id": " g ", "props": {"n": 1, "note": "x"}},
    {"id": "t2", "project_id": "p", "props": {"n": 1, "ref_id": "r", "other": 2.5}},
    {"id": "t3", "project_id": "p", "props": {"list": ["a"], "nested": {"id": "n"}}},
    {"id": "t4", "project_id": "p", "props": {"count": 3, "Id": 7, "flag": True}},
    {"id": "t5", "project_id": "t5", "props": {}},
    {"id": "t6", "parent_id": 5, "props": {"n": None}},
    # One text column (read twice over, as itemgetter of one key gives no tuple): once, and blank.
    {"id": "u1", "props": {"n": 1}},
    {"id": " ", "props": {"ref_id": "r"}},
    {"id": "u2"},
]


@pytest.mark.parametrize("row", ODD_ROWS)
def test_add_row_ids_finds_what_the_walk_finds_in_odd_rows(row):
    named: dict[str, None] = {}
    add_row_ids(row, row_ids_plan(row, ("props", "props_id")), named)
    assert list(named) == entities_touched(row)


def test_add_row_ids_of_many_rows_is_the_walk_of_their_list():
    rows = [{"id": f"row-{n}", "project_id": "p", "props": {"ref_id": f"ref-{n}"}} for n in range(40)]
    named: dict[str, None] = {}
    for row in rows:
        add_row_ids(row, row_ids_plan(rows[0], ("props",)), named)
    assert list(named)[:MAX_ENTITIES] == entities_touched({"rows": rows})


def _flaky_read(failures: int, attempts: list[int]):
    def read(ctx, args):
        attempts.append(len(attempts))
        if len(attempts) <= failures:
            raise OpError("the workspace is busy", retryable=True)
        return {"tasks": []}

    return read


@pytest.mark.parametrize(("retries", "failures", "ok"), [(2, 2, True), (1, 2, False), (0, 1, False), (2, 0, True)])
def test_a_read_is_tried_again_after_a_retryable_failure_as_often_as_the_settings_say(store, retries, failures, ok):
    attempts: list[int] = []
    settings = GatewaySettings(read_retries=retries, retry_backoff_s=0.001)
    gateway = Gateway(store=store, call_log=False, settings=settings, handlers={"onto.task.list": Handler(_flaky_read(failures, attempts))})
    answer = gateway.exec("onto.task.list", {})
    assert answer["ok"] is ok and len(attempts) == min(failures, retries) + 1, (answer, attempts)
    if not ok:
        assert answer["error"]["details"]["retryable"] is True
