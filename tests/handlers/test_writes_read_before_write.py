"""Seed 001 behaviours of the write handlers: read before write, template guidance, the generated context document."""

from __future__ import annotations

import pytest
from test_writes_harness import REGISTRY, demo, doc, project, row, run, task  # noqa: F401

RELAY, FAIR = project(1), project(2)
TAKEN_TASK = "Fix webhook retry storm"  # task 3 of the Relay launch
TAKEN_DOCUMENT = "API Spec"  # document 2 of the Relay launch


@pytest.mark.parametrize("title", [TAKEN_TASK, "  fix WEBHOOK   retry storm "])
def test_a_task_titled_like_one_in_its_project_is_created_with_a_warning_naming_it(demo, title):
    ran = run(demo, "onto.task.create", {"project_id": RELAY, "title": title})
    assert row(demo, "task", ran.result["task"]["id"]) is not None
    [warning] = ran.warnings
    assert task(3) in warning and repr(TAKEN_TASK) in warning and "onto.task.update" in warning


def test_the_same_title_in_another_project_or_a_new_one_says_nothing(demo):
    assert run(demo, "onto.task.create", {"project_id": FAIR, "title": TAKEN_TASK}).warnings == []
    assert run(demo, "onto.task.create", {"project_id": RELAY, "title": "Something new entirely"}).warnings == []


def test_documents_are_checked_when_created_either_way(demo):
    created = run(demo, "onto.document.create", {"project_id": RELAY, "title": TAKEN_DOCUMENT, "type_key": "document.spec"})
    assert len(created.warnings) == 1 and doc(2) in created.warnings[0]
    attached = run(demo, "onto.task.doc.create_or_attach", {"task_id": task(3), "title": TAKEN_DOCUMENT.lower()})
    assert any(doc(2) in w for w in attached.warnings)


def test_a_type_key_without_a_template_points_at_the_template_request_op(demo):
    assert REGISTRY.get("onto.template.request") is not None
    ran = run(demo, "onto.task.create", {"project_id": RELAY, "title": "Look into caching", "type_key": "task.reserch"})
    [warning] = ran.warnings
    assert "no task template has type_key 'task.reserch'" in warning
    assert "onto.template.request (scope 'task', type_key 'task.reserch')" in warning
    assert "task.research" in warning  # the closest template there is
    assert ran.result["task"]["type_key"] == "task.reserch"  # kept: templates are optional


def test_type_keys_with_a_template_or_built_in_say_nothing(demo):
    assert run(demo, "onto.task.create", {"project_id": RELAY, "title": "Compare vendors", "type_key": "task.research"}).warnings == []
    folder = run(demo, "onto.document.create", {"project_id": RELAY, "title": "Archive", "type_key": "document.folder"})
    assert folder.warnings == []


def test_an_update_to_an_unknown_type_key_gets_the_guidance_too(demo):
    ran = run(demo, "onto.goal.update", {"goal_id": "30000000-0000-4000-8000-000000000001", "type_key": "goal.north_star"})
    assert len(ran.warnings) == 1 and "onto.template.request" in ran.warnings[0]


def test_project_creation_guides_its_type_keys_by_where_they_are(demo):
    ran = run(demo, "onto.project.create", {
        "project": {"name": "Podcast", "type_key": "project.podcast"}, "relationships": [],
        "entities": [{"temp_id": "t1", "kind": "task", "name": "Record the pilot", "type_key": "task.record"},
                     {"temp_id": "t2", "kind": "task", "name": "Book guests", "type_key": "task.research"}]})
    assert [w.split(":")[0] for w in ran.warnings] == ["project", "entities[0] ('t1')"]


def test_a_project_without_a_context_document_gets_one_written_from_what_it_was_created_with(demo):
    ran = run(demo, "onto.project.create", {
        "project": {"name": "Garden", "description": "Grow vegetables on the balcony.", "facet_scale": "small",
                    "props": {"braindump": {"id": "bd-7", "summary": "Tomatoes first; herbs later."}}},
        "entities": [{"temp_id": "g", "kind": "goal", "name": "Harvest in July", "description": "Enough for salads"},
                     {"temp_id": "t", "kind": "task", "name": "Buy pots"},
                     {"temp_id": "m", "kind": "milestone", "name": "Seedlings up"}],
        "relationships": []})
    context = ran.result["context_document"]
    assert ran.result["context_document_generated"] is True
    assert context["title"] == "Garden: context" and context["type_key"] == "document.context"
    content = context["content"]
    for part in ("# Garden", "Grow vegetables on the balcony.", "scale small", "## Goals", "- Harvest in July: Enough for salads",
                 "## Tasks", "- Buy pots", "## From the brain dump", "Tomatoes first; herbs later. (brain dump bd-7)"):
        assert part in content
    assert "Seedlings up" not in content  # the overview names goals and tasks
    with demo.read() as tx:
        assert tx.document_children(ran.result["project"]["id"], None)[0]["id"] == context["id"]


def test_a_given_context_document_is_kept_as_given(demo):
    given = {"title": "Why", "content": "Because."}
    ran = run(demo, "onto.project.create", {"project": {"name": "Given"}, "entities": [], "relationships": [],
                                            "context_document": given})
    assert ran.result["context_document_generated"] is False
    assert (ran.result["context_document"]["title"], ran.result["context_document"]["content"]) == ("Why", "Because.")
