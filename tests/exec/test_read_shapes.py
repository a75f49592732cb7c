"""A plain read takes a shorter path than a dry-run of it: the answers must not differ.

A plain read notes nothing for the state digest, so the store fetches only
the columns a summary shows and shapes the rows itself, a task's documents
come in one join, and a list names its ids instead of having its result
walked. A dry-run still reads whole rows (its digest covers them), so it
takes the older path: comparing the two on the demo workspace, on both
backends, holds the fast path to the same bytes.
"""

from __future__ import annotations

import json

import pytest
from dry_run_pairs import plain_and_dry

from opgate.core import Gateway
from opgate.core.exec._entity_ids import entities_named, entities_touched
from opgate.core.exec._valid_args import ValidArgs, flat_key
from opgate.core.handlers._summaries import PLURALS
from opgate.core.store import ENTITY_KINDS, StoreError

PROJECT = "10000000-0000-4000-8000-000000000001"  # the demo workspace's first project
NO_PROJECT = "10000000-0000-4000-8000-0000000000ff"



@pytest.mark.parametrize("kind", ENTITY_KINDS)
def test_every_kinds_list_answers_the_same_bytes_as_its_dry_run(store, kind):
    gateway = Gateway(store=store, call_log=False)
    for args in ({"limit": 3}, {"limit": 50}, {"limit": 2, "offset": 1}):
        plain, dry = plain_and_dry(gateway, f"onto.{kind}.list", args)
        assert json.dumps(plain["result"]) == json.dumps(dry["result"])
        assert plain["meta"]["entities"] == entities_touched(plain["result"]) == dry["meta"]["entities"]


def test_a_project_filtered_list_is_the_same_on_both_paths_and_names_its_ids(store):
    gateway = Gateway(store=store, call_log=False)
    plain, dry = plain_and_dry(gateway, "onto.task.list", {"project_id": PROJECT, "limit": 4})
    assert plain["result"] == dry["result"] and plain["result"]["tasks"]
    assert plain["meta"]["entities"] == [task["id"] for task in plain["result"]["tasks"]]
    assert list(plain["result"]["tasks"][0]) == ["id", "title", "state", "type", "priority"]


def test_a_list_of_a_project_that_does_not_exist_is_still_not_found(store):
    gateway = Gateway(store=store, call_log=False)
    for dry_run in (False, True):
        answer = gateway.exec("onto.task.list", {"project_id": NO_PROJECT}, dry_run=dry_run)
        assert answer["error"]["code"] == "NOT_FOUND", answer


def test_an_empty_page_of_an_existing_project_is_ok(store):
    with store.write() as tx:
        project = tx.insert("project", {"name": "Nothing in it yet"})["id"]
    answer = Gateway(store=store, call_log=False).exec("onto.task.list", {"project_id": project})
    assert answer["ok"] and answer["result"]["tasks"] == [] and answer["result"]["total"] == 0


def test_a_task_with_documents_gets_the_same_answer_on_both_paths(store):
    with store.read() as tx:
        linked = [task for task in tx.list("task", limit=None).rows if tx.task_documents(task["id"])]
    assert linked, "the demo workspace links documents to tasks"
    gateway = Gateway(store=store, call_log=False)
    for task in linked:
        plain, dry = plain_and_dry(gateway, "onto.task.get", {"task_id": task["id"]})
        assert json.dumps(plain["result"]) == json.dumps(dry["result"]) and plain["result"]["documents"]
        assert plain["meta"]["entities"] == dry["meta"]["entities"]


def test_a_projects_get_nests_the_same_summaries_on_both_paths(store):
    plain, dry = plain_and_dry(Gateway(store=store, call_log=False), "onto.project.get", {"project_id": PROJECT})
    assert json.dumps(plain["result"]) == json.dumps(dry["result"]) and plain["result"]["tasks"]
    assert plain["meta"]["entities"] == dry["meta"]["entities"]


def test_task_documents_without_observing_matches_the_observed_rows(store):
    with store.read() as observed:
        tasks = [task["id"] for task in observed.list("task", limit=None).rows]
        expected = {task: observed.task_documents(task) for task in tasks}
        by_role = {task: observed.task_documents(task, role="reference") for task in tasks}
    with store.read(observe=False) as plain:
        assert {task: plain.task_documents(task) for task in tasks} == expected
        assert {task: plain.task_documents(task, role="reference") for task in tasks} == by_role


def test_a_read_that_observes_nothing_has_no_digest_to_give(store):
    with store.read(observe=False) as tx:
        page = tx.list("task", limit=2, fields=("title",))
        assert [sorted(row) for row in page.rows] == [["id", "title"], ["id", "title"]]
        with pytest.raises(StoreError, match="observe=False"):
            tx.state_digest()


def test_a_list_with_a_shape_gives_those_keys_in_order_on_both_kinds_of_read(store):
    shape = (("id", "id"), ("name", "title"), ("state", "state_key"))
    for observe in (True, False):
        with store.read(observe=observe) as tx:
            rows = tx.list("task", {"project_id": PROJECT}, limit=3, order="-updated_at", shape=shape).rows
            full = tx.list("task", {"project_id": PROJECT}, limit=3, order="-updated_at").rows
        assert rows == [{"id": row["id"], "name": row["title"], "state": row["state_key"]} for row in full]


def test_named_ids_give_what_the_walk_gives():
    ids = ["a", "b", " ", "a", "c"]
    assert entities_named(ids) == entities_touched({"rows": [{"id": id} for id in ids]})
    many = [f"id-{n}" for n in range(80)]
    assert entities_named(many) == entities_touched({"rows": [{"id": id} for id in many]})
    assert entities_named(["x"], {"created": [{"kind": "task", "id": "y"}]}) == ["x", "y"]


def test_remembered_arguments_tell_types_apart_and_errors_are_never_remembered(store):
    assert flat_key("op", 1, {"limit": 1}) != flat_key("op", 1, {"limit": True}) != flat_key("op", 1, {"limit": 1.0})
    assert flat_key("op", 1, {"ids": ["a"]}) is None
    # {True: 0} == {1: 0} as keys, so names that are not text are never remembered
    assert flat_key("op", 1, {True: 0}) is None
    assert flat_key("op", 1, {1: 0}) is None
    remembered = ValidArgs(kept=2)
    for n in range(3):
        remembered.add(flat_key("op", 1, {"n": n}))
    assert flat_key("op", 1, {"n": 2}) in remembered and flat_key("op", 1, {"n": 0}) not in remembered
    gateway = Gateway(store=store, call_log=False)
    assert gateway.exec("onto.task.list", {"limit": 5})["ok"]
    for _ in range(2):  # a bad value is reported every time, never served from what was valid
        assert gateway.exec("onto.task.list", {"limit": True})["error"]["code"] == "VALIDATION_ERROR"
        assert gateway.exec("onto.task.list", {"limit": 5.5})["error"]["code"] == "VALIDATION_ERROR"


def test_only_arguments_sent_plain_and_valid_skip_both_checks_later(store):
    with store.write() as tx:
        project_id = tx.insert("project", {"name": "Plain"})["id"]
    gateway = Gateway(store=store, call_log=False)
    gateway.session.remember(project_id=project_id)
    validator = gateway._dispatcher.validator
    record = gateway.registry.resolve("onto.project.get")
    # Filled from the session: neither what was sent ({}) nor what ran counts as sent plain.
    filled = gateway.exec("onto.project.get", {})
    assert filled["ok"] and filled["meta"]["warnings"], filled
    assert not validator.known_plain(record, {}) and not validator.known_plain(record, {"project_id": project_id})
    assert gateway.exec("onto.project.get", {"project_id": project_id})["ok"]
    assert validator.known_plain(record, {"project_id": project_id})
    lists = gateway.registry.resolve("onto.task.list")
    assert gateway.exec("onto.task.list", {"limit": 5, "state_key": "caf\u00e9"})["error"]["code"] == "VALIDATION_ERROR"
    assert not validator.known_plain(lists, {"limit": 5, "state_key": "caf\u00e9"})
    assert gateway.exec("onto.task.list", {"limit": 5})["ok"]
    assert validator.known_plain(lists, {"limit": 5})
    assert not validator.known_plain(lists, {"limit": True}) and not validator.known_plain(lists, {"limit": [5]})
    # What was filled is filled again, with its warning: {} never skips the session's fill.
    again = gateway.exec("onto.project.get", {})
    assert again["ok"] and again["meta"]["warnings"] == filled["meta"]["warnings"]


def test_plurals_cover_every_kind():
    assert set(PLURALS) == set(ENTITY_KINDS)
