"""Create, update and delete of single entities, and template requests."""

from __future__ import annotations

import pytest
from test_writes_harness import (  # noqa: F401  (demo is a fixture)
    NOW, children, demo, doc, goal, milestone, plan, project, row, run, task,
)

from opgate.core.exec._errors import ConflictError, InvalidArguments, NotFoundError
from opgate.core.store import Conflict


def test_create_task_files_it_under_plan_goal_and_milestone(demo):
    ran = run(demo, "onto.task.create", {
        "project_id": project(1), "title": "Record the demo", "plan_id": plan(1),
        "goal_id": goal(1), "supporting_milestone_id": milestone(3), "props": {"owner": "Ana"}})
    created = ran.result["task"]
    assert row(demo, "task", created["id"]) == created
    assert (created["state_key"], created["priority"], created["plan_id"]) == ("todo", 3, plan(1))
    assert created["props"] == {"owner": "Ana"} and created["created_at"] == NOW


@pytest.mark.parametrize("field, value", [("plan_id", plan(3)), ("goal_id", goal(3)),
                                          ("supporting_milestone_id", milestone(4))])
def test_create_task_refuses_references_into_another_project(demo, field, value):
    before = demo.dump()
    with pytest.raises(InvalidArguments) as caught:
        run(demo, "onto.task.create", {"project_id": project(1), "title": "x", field: value})
    assert caught.value.field_errors[0]["field"] == f"args.{field}"
    assert caught.value.field_errors[0]["code"] == "other_project"
    assert demo.dump() == before


def test_create_task_names_a_missing_or_mistyped_reference(demo):
    with pytest.raises(NotFoundError) as missing:
        run(demo, "onto.task.create", {"project_id": project(1), "title": "x",
                                       "plan_id": "40000000-0000-4000-8000-000000000099"})
    assert missing.value.field_errors[0]["field"] == "args.plan_id"
    with pytest.raises(InvalidArguments) as wrong_kind:
        run(demo, "onto.task.create", {"project_id": project(1), "title": "x", "plan_id": goal(1)})
    assert "is a goal, not a plan" in wrong_kind.value.message
    with pytest.raises(NotFoundError):
        run(demo, "onto.task.create", {"project_id": "10000000-0000-4000-8000-000000000099", "title": "x"})


@pytest.mark.parametrize("kind, name_field", [("goal", "name"), ("plan", "name")])
def test_create_goal_and_plan(demo, kind, name_field):
    ran = run(demo, f"onto.{kind}.create", {"project_id": project(2), name_field: "New", "type_key": f"{kind}.x"})
    assert row(demo, kind, ran.result[kind]["id"])[name_field] == "New"
    assert ran.result[kind]["state_key"] == "draft"


def test_create_document_under_a_folder_at_a_position(demo):
    ran = run(demo, "onto.document.create", {"project_id": project(1), "title": "Incident Runbook",
                                            "parent_id": doc(4), "position": 0})
    new = ran.result["document"]
    assert new["type_key"] == "document.note" and new["position"] == 0
    with demo.read() as tx:
        assert [d["id"] for d in tx.document_children(project(1), doc(4))] == [new["id"], doc(5)]


def test_create_document_refuses_a_parent_from_another_project(demo):
    with pytest.raises(InvalidArguments) as caught:
        run(demo, "onto.document.create", {"project_id": project(1), "title": "x", "parent_id": doc(10)})
    assert caught.value.field_errors[0]["field"] == "args.parent_id"


def test_update_changes_only_given_fields_and_reports_them(demo):
    before = row(demo, "task", task(3))
    ran = run(demo, "onto.task.update", {"task_id": task(3), "state_key": "in_progress", "priority": before["priority"]})
    assert ran.result["changed_fields"] == ["state_key"]
    after = row(demo, "task", task(3))
    assert ran.result["task"] == after
    assert {k: v for k, v in after.items() if k not in ("state_key", "updated_at")} == \
        {k: v for k, v in before.items() if k not in ("state_key", "updated_at")}


def test_update_null_clears_optional_fields(demo):
    ran = run(demo, "onto.task.update", {"task_id": task(1), "plan_id": None, "due_at": None})
    assert ran.result["task"]["plan_id"] is None and ran.result["task"]["due_at"] is None
    assert ran.result["changed_fields"] == ["due_at", "plan_id"]


def test_update_merges_props_shallowly_and_null_removes_a_key(demo):
    current = row(demo, "task", task(3))["props"]
    assert set(current) == {"assignee", "blocked_by"}
    ran = run(demo, "onto.task.update", {"task_id": task(3), "props": {"blocked_by": None, "estimate": {"days": 2}}})
    assert ran.result["task"]["props"] == {"assignee": current["assignee"], "estimate": {"days": 2}}
    assert ran.result["changed_fields"] == ["props"]


def test_update_that_changes_nothing_writes_nothing(demo):
    before = demo.dump()
    ran = run(demo, "onto.goal.update", {"goal_id": goal(1), "state_key": row(demo, "goal", goal(1))["state_key"]})
    assert ran.result["changed_fields"] == []
    assert demo.dump() == before


@pytest.mark.parametrize("args", [{"document_id": doc(2), "parent_id": None},
                                  {"document_id": doc(2), "position": 0},
                                  {"task_id": task(1), "project_id": project(2)}])
def test_update_refuses_moves_and_project_changes(demo, args):
    op = "onto.document.update" if "document_id" in args else "onto.task.update"
    with pytest.raises(InvalidArguments) as caught:
        run(demo, op, args)
    assert caught.value.field_errors[0]["code"] == "not_updatable"


def test_update_needs_a_field_and_an_existing_entity(demo):
    with pytest.raises(InvalidArguments):
        run(demo, "onto.plan.update", {"plan_id": plan(1)})
    with pytest.raises(NotFoundError) as caught:
        run(demo, "onto.plan.update", {"plan_id": "40000000-0000-4000-8000-000000000099", "name": "x"})
    assert caught.value.field_errors[0]["field"] == "args.plan_id"


def test_update_task_refuses_a_plan_of_another_project(demo):
    with pytest.raises(InvalidArguments):
        run(demo, "onto.task.update", {"task_id": task(1), "plan_id": plan(3)})


@pytest.mark.parametrize("kind, id, field, value", [
    ("project", project(3), "facet_stage", "execution"), ("output", "60000000-0000-4000-8000-000000000001", "state_key", "review"),
    ("milestone", milestone(2), "due_at", "2026-12-04T00:00:00Z"), ("risk", "80000000-0000-4000-8000-000000000002", "impact", None),
    ("decision", "90000000-0000-4000-8000-000000000003", "outcome", "One timeline."),
    ("requirement", "a0000000-0000-4000-8000-000000000004", "priority", 1),
    ("document", doc(2), "content", None),
])
def test_update_every_other_kind(demo, kind, id, field, value):
    ran = run(demo, f"onto.{kind}.update", {f"{kind}_id": id, field: value})
    assert row(demo, kind, id)[field] == value == ran.result[kind][field]


def test_delete_task_takes_links_and_edges_but_not_documents(demo):
    ran = run(demo, "onto.task.delete", {"task_id": task(1)})
    assert ran.result["deleted"] == {"kind": "task", "id": task(1), "name": "Finalize public API v2 endpoints"}
    assert ran.result["removed_links"] >= 1 and ran.result["removed_edges"] >= 1
    assert row(demo, "task", task(1)) is None and row(demo, "document", doc(2)) is not None
    with demo.read() as tx:
        assert tx.edges_of(task(1)) == []


def test_delete_plan_clears_its_tasks_and_names_them(demo):
    ran = run(demo, "onto.plan.delete", {"plan_id": plan(3)})
    cleared = ran.result["cleared"]
    assert {c["id"] for c in cleared} == {task(10), task(11), task(12)}
    assert all(c["field"] == "plan_id" and c["name"] for c in cleared)
    assert all(row(demo, "task", c["id"])["plan_id"] is None for c in cleared)


def test_delete_goal_clears_goal_ids(demo):
    ran = run(demo, "onto.goal.delete", {"goal_id": goal(3)})
    assert {c["field"] for c in ran.result["cleared"]} == {"goal_id"}
    assert row(demo, "task", task(10))["goal_id"] is None


def test_delete_document_with_children_needs_cascade(demo):
    with pytest.raises(Conflict):
        run(demo, "onto.document.delete", {"document_id": doc(23)})
    ran = run(demo, "onto.document.delete", {"document_id": doc(23), "cascade": True})
    assert ran.result["also_deleted"] == [{"kind": "document", "id": doc(24), "name": "Library Annex Quote"}]
    assert row(demo, "document", doc(24)) is None
    assert [row(demo, "document", d)["position"] for d in children(demo, project(3), None)] == [0, 1]


def test_delete_refuses_an_id_of_another_kind(demo):
    with pytest.raises(InvalidArguments):
        run(demo, "onto.task.delete", {"task_id": goal(1)})
    assert row(demo, "goal", goal(1)) is not None


def test_request_template_stores_it_as_requested_and_refuses_duplicates(demo):
    args = {"scope": "project", "type_key": "project.podcast", "name": "Podcast Season"}
    ran = run(demo, "onto.template.request", args)
    assert ran.result["template"]["status"] == "requested"
    assert row(demo, "template", ran.result["template"]["id"])["name"] == "Podcast Season"
    with pytest.raises(ConflictError):
        run(demo, "onto.template.request", args)
    with pytest.raises(ConflictError):
        run(demo, "onto.template.request", {"scope": "project", "type_key": "project.software", "name": "x"})
    run(demo, "onto.template.request", {**args, "scope": "task"})  # another scope is another template
