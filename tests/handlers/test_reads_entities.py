"""list, search and details of the ten entity kinds, on the demo workspace.

The handlers run directly, in a real read transaction over a real SQLite
file; expectations come from fixtures/demo_workspace.json itself.
"""

from __future__ import annotations

import json
from collections import Counter

import pytest

from opgate.core._builtin import fixtures_dir
from opgate.core.handlers._summaries import PLURALS, abbreviate
from opgate.core.store import NotFound

DEMO = json.loads((fixtures_dir() / "demo_workspace.json").read_text(encoding="utf-8"))
RELAY, NOVEL, FAIR = (f"10000000-0000-4000-8000-00000000000{n}" for n in (1, 2, 3))
MISSING = "20000000-0000-4000-8000-999999999999"

SUMMARY_KEYS = {
    "project": {"id", "name", "state", "type", "updated_at"},
    "task": {"id", "title", "state", "type", "priority"},
    "goal": {"id", "name", "state"},
    "plan": {"id", "name", "state"},
    "document": {"id", "title", "state", "type"},
    "output": {"id", "name", "state"},
    "milestone": {"id", "title", "state", "due_at"},
    "risk": {"id", "title", "state", "impact"},
    "decision": {"id", "title", "state", "decision_at"},
    "requirement": {"id", "text", "state", "type"},
}


def demo_rows(kind: str, **equal) -> list[dict]:
    return [r for r in DEMO[PLURALS[kind]] if all(r.get(k) == v for k, v in equal.items())]


@pytest.mark.parametrize("kind", list(SUMMARY_KEYS))
def test_every_kind_lists_its_summaries_newest_first(read, kind):
    result = read(f"onto.{kind}.list")
    items = result[PLURALS[kind]]
    rows = {r["id"]: r for r in demo_rows(kind)}
    assert result["total"] == len(rows) and len(items) == len(rows)
    assert all(set(item) == SUMMARY_KEYS[kind] for item in items)
    stamps = [rows[item["id"]]["updated_at"] for item in items]
    assert stamps == sorted(stamps, reverse=True)
    assert (result["limit"], result["offset"], result["has_more"]) == (50, 0, False)


def test_projects_come_newest_first_with_their_type(read):
    projects = read("onto.project.list")["projects"]
    assert [p["name"] for p in projects] == ["Riverside Maker Fair 2027", "Relay 2.0 Launch", "Tidewater: A Novel"]
    assert projects[1] == {"id": RELAY, "name": "Relay 2.0 Launch", "state": "active",
                           "type": "project.software", "updated_at": "2026-11-20T16:42:00Z"}


def test_filters_narrow_the_list(read):
    relay_tasks = read("onto.task.list", project_id=RELAY)
    assert relay_tasks["total"] == len(demo_rows("task", project_id=RELAY))
    in_progress = read("onto.task.list", project_id=RELAY, state_key="in_progress")
    expected = {r["id"] for r in demo_rows("task", project_id=RELAY, state_key="in_progress")}
    assert {t["id"] for t in in_progress["tasks"]} == expected
    assert 0 < in_progress["total"] < relay_tasks["total"]
    folders = read("onto.document.list", project_id=RELAY, type_key="document.folder")["documents"]
    assert folders and {d["type"] for d in folders} == {"document.folder"}
    high = read("onto.risk.list", impact="high")["risks"]
    assert {r["id"] for r in high} == {r["id"] for r in demo_rows("risk", impact="high")}


def test_pages_cover_the_list_once(read):
    total = len(demo_rows("task", project_id=FAIR))
    seen, offset = [], 0
    while True:
        page = read("onto.task.list", project_id=FAIR, limit=3, offset=offset)
        seen += [t["id"] for t in page["tasks"]]
        if not page["has_more"]:
            break
        offset += 3
    assert len(seen) == total and len(set(seen)) == total
    assert read("onto.task.list", project_id=FAIR, limit=3)["has_more"] is True


def test_an_unknown_project_filter_is_not_found_rather_than_empty(read):
    with pytest.raises(NotFound):
        read("onto.task.list", project_id="10000000-0000-4000-8000-000000000099")
    with pytest.raises(NotFound):
        read("onto.goal.search", search="teams", project_id="10000000-0000-4000-8000-000000000099")


def test_search_finds_by_words_and_respects_filters(read):
    found = read("onto.task.search", search="webhook", project_id=RELAY)
    assert [t["title"] for t in found["tasks"]] == ["Fix webhook retry storm"]
    assert read("onto.task.search", search="webhook", project_id=FAIR)["total"] == 0
    spec = read("onto.document.search", search="API Spec")["documents"]
    assert spec[0] == {"id": "50000000-0000-4000-8000-000000000002", "title": "API Spec",
                       "state": "draft", "type": "document.spec"}
    permit = read("onto.risk.search", search="permit", impact="low")
    assert permit["total"] == 0  # the permit risk is critical
    assert read("onto.risk.search", search="permit")["risks"][0]["impact"] == "critical"


def test_project_details_nest_every_kind_abbreviated(read):
    result = read("onto.project.get", project_id=RELAY)
    demo_project = demo_rows("project", id=RELAY)[0]
    assert {k: v for k, v in result["project"].items() if k in demo_project} == demo_project
    for kind, plural in PLURALS.items():
        if kind == "project":
            continue
        expected = {r["id"] for r in demo_rows(kind, project_id=RELAY)}
        assert {item["id"] for item in result[plural]} == expected
        assert result["counts"][plural] == len(expected)
        assert all(set(item) == SUMMARY_KEYS[kind] for item in result[plural])
    assert read.warnings == []


def test_task_details_carry_documents_with_roles_and_edges(read):
    task_id = "20000000-0000-4000-8000-000000000001"
    result = read("onto.task.get", task_id=task_id)
    assert result["task"]["title"] == "Finalize public API v2 endpoints"
    links = [link for link in DEMO["task_documents"] if link["task_id"] == task_id]
    assert {(d["id"], d["role"]) for d in result["documents"]} == {(l["document_id"], l["role"]) for l in links}
    touching = {e["id"] for e in DEMO["edges"] if task_id in (e["src_id"], e["dst_id"])}
    assert {e["id"] for e in result["edges"]} == touching and touching


@pytest.mark.parametrize("kind", [k for k in SUMMARY_KEYS if k not in ("project", "task")])
def test_details_return_the_full_row(read, kind):
    row = demo_rows(kind)[0]
    result = read(f"onto.{kind}.get", **{f"{kind}_id": row["id"]})
    assert list(result) == [kind]
    assert {k: v for k, v in result[kind].items() if k in row} == row


def test_details_of_a_missing_or_wrong_kind_id_are_not_found(read):
    with pytest.raises(NotFound):
        read("onto.task.get", task_id=MISSING)
    with pytest.raises(NotFound):  # a task's id is no goal's id
        read("onto.goal.get", goal_id="20000000-0000-4000-8000-000000000001")


def test_abbreviate_is_stable_and_tolerant():
    task = {"id": "t", "title": "T", "state_key": "todo", "type_key": None, "priority": 3, "extra": 1}
    assert abbreviate("task", task) == {"id": "t", "title": "T", "state": "todo", "type": None, "priority": 3}
    assert abbreviate("risk", {"id": "r", "title": "R"}) == {"id": "r", "title": "R", "state": None, "impact": None}
    with pytest.raises(ValueError, match="template"):
        abbreviate("template", {"id": "x"})


def test_demo_has_the_states_these_tests_rely_on():
    # Guards the fixtures: the filter tests above mean nothing on a uniform workspace.
    states = Counter(r["state_key"] for r in demo_rows("task", project_id=RELAY))
    assert len(states) > 1


def test_past_the_count_cap_lists_say_at_least(tmp_path, read_runner, new_workspace):
    from opgate.core.store import COUNT_CAP, open_store

    store = open_store(new_workspace(tmp_path, "crowded.db"))
    with store.write() as tx:
        for n in range(COUNT_CAP + 1):
            tx.insert("task", {"project_id": RELAY, "title": f"bulk {n}"})
    read = read_runner(store)
    listed = read("onto.task.list", project_id=RELAY, limit=5)
    assert "total" not in listed and listed["total_at_least"] == COUNT_CAP + 1 and listed["has_more"] is True
    assert "total" not in read("onto.task.search", search="bulk", limit=5)
    project = read("onto.project.get", project_id=RELAY)
    assert project["counts_at_least"] == {"tasks": COUNT_CAP + 1} and "tasks" not in project["counts"]
    assert any("at least" in warning for warning in read.warnings)
    store.close()
