"""create_onto_project: a project, its entities and relationships in one call."""

from __future__ import annotations

import pytest
from test_writes_harness import REGISTRY, demo, row, run  # noqa: F401

from opgate.core.exec._errors import InvalidArguments

CREATE = "onto.project.create"


def example(title_part: str) -> dict:
    record = REGISTRY.get(CREATE)
    return next(e["args"] for e in record.examples if title_part in e["title"])


def entity(temp_id, kind, name, **extra):
    return {"temp_id": temp_id, "kind": kind, "name": name, **extra}


def test_phased_example_sets_containment_and_edges(demo):
    args = example("Phases")
    ran = run(demo, CREATE, args)
    result, ids = ran.result, ran.result["id_map"]
    assert list(ids) == [e["temp_id"] for e in args["entities"]]
    audit, migrate = row(demo, "task", ids["task_audit"]), row(demo, "task", ids["task_migrate"])
    assert (audit["plan_id"], audit["supporting_milestone_id"], audit["priority"]) == \
        (ids["plan_rewrite"], ids["ms_draft"], 4)
    assert (migrate["plan_id"], migrate["supporting_milestone_id"]) == (ids["plan_rewrite"], ids["ms_live"])
    with demo.read() as tx:
        edges = tx.project_edges(result["project"]["id"])
    assert {(e["src_id"], e["rel"], e["dst_id"]) for e in edges} == {
        (ids["task_migrate"], "depends_on", ids["task_audit"]),
        (ids["ms_live"], "supports", ids["goal_self_serve"])}
    assert sorted(result["created"]["edge"]) == sorted(e["id"] for e in edges)
    assert row(demo, "goal", ids["goal_self_serve"])["target_at"] == "2027-04-01T00:00:00Z"
    assert row(demo, "milestone", ids["ms_live"])["due_at"] == "2027-03-01T00:00:00Z"
    assert row(demo, "project", result["project"]["id"]) == result["project"]
    assert result["project"]["state_key"] == "active"


def test_context_document_heads_the_root_and_clarifications_are_kept(demo):
    args = example("Phases")
    args = {**args, "entities": [*args["entities"], entity("doc_brief", "document", "Brief", description="# Brief")]}
    ran = run(demo, CREATE, args)
    context = ran.result["context_document"]
    project_id = ran.result["project"]["id"]
    with demo.read() as tx:
        roots = tx.document_children(project_id, None)
    assert [r["id"] for r in roots] == [context["id"], ran.result["id_map"]["doc_brief"]]
    assert context["content"] == args["context_document"]["content"] and context["parent_id"] is None
    assert roots[1]["content"] == "# Brief"
    assert ran.result["created"]["document"] == [context["id"], ran.result["id_map"]["doc_brief"]]
    kept = ran.result["project"]["props"]["clarifications"]
    assert kept == [{"required": False, **args["clarifications"][0]}] == ran.result["clarifications"]


def test_a_required_clarification_writes_nothing(demo):
    before = demo.dump()
    args = {**example("Start small"), "clarifications": [
        {"key": "what", "question": "What is the project about?", "required": True},
        {"key": "when", "question": "When does it start?"}]}
    ran = run(demo, CREATE, args)
    assert ran.result == {"status": "clarification_needed", "clarifications": [
        {"required": True, "key": "what", "question": "What is the project about?"},
        {"required": False, "key": "when", "question": "When does it start?"}]}
    assert demo.dump() == before


def test_description_and_dates_land_in_each_kind_s_field(demo):
    ran = run(demo, CREATE, {"project": {"name": "P"}, "relationships": [], "entities": [
        entity("d", "decision", "Pick a venue", description="cheaper", due_at="2027-01-01T00:00:00Z",
               state_key="accepted"),
        entity("r", "requirement", "Step-free", description="every stall", props={"source": "council"}),
        entity("k", "risk", "Rain", description="wet", type_key="risk.weather", priority=5),
    ]})
    ids = ran.result["id_map"]
    chosen = row(demo, "decision", ids["d"])
    assert (chosen["rationale"], chosen["decision_at"], chosen["state_key"]) == \
        ("cheaper", "2027-01-01T00:00:00Z", "accepted")
    requirement = row(demo, "requirement", ids["r"])
    assert requirement["props"] == {"source": "council", "description": "every stall"}
    assert requirement["priority"] == 3 and requirement["text"] == "Step-free"
    assert row(demo, "risk", ids["k"])["description"] == "wet"
    assert len(ran.warnings) == 2 and all("'k'" in w for w in ran.warnings)  # risk: no type_key, no priority
    assert ran.result["created"] == {"project": [ran.result["project"]["id"]], "decision": [ids["d"]],
                                     "requirement": [ids["r"]], "risk": [ids["k"]],
                                     "document": [ran.result["context_document"]["id"]]}  # generated: none was given
    assert ran.result["context_document_generated"] is True and ran.result["clarifications"] == []


def test_a_state_the_kind_does_not_have_names_the_entity_and_the_states(demo):
    with pytest.raises(InvalidArguments) as caught:
        run(demo, CREATE, {"project": {"name": "P"}, "relationships": [],
                           "entities": [entity("g1", "goal", "G", state_key="todo")]})
    error = caught.value.field_errors[0]
    assert error["field"] == "args.entities[0].state_key"
    assert "'g1'" in error["message"] and error["allowed"] == ["draft", "active", "achieved", "abandoned"]


def test_default_state_is_the_kind_s_first(demo):
    ran = run(demo, CREATE, {"project": {"name": "P"}, "relationships": [],
                             "entities": [entity("m", "milestone", "M"), entity("t", "task", "T")]})
    assert row(demo, "milestone", ran.result["id_map"]["m"])["state_key"] == "pending"
    assert row(demo, "task", ran.result["id_map"]["t"])["state_key"] == "todo"


def test_bad_temp_ids_and_relationships_are_all_reported(demo):
    before = demo.dump()
    with pytest.raises(InvalidArguments) as caught:
        run(demo, CREATE, {"project": {"name": "P"}, "entities": [
            entity("t", "task", "T"), entity("t", "goal", "G"), entity("p1", "plan", "P1"), entity("p2", "plan", "P2")],
            "relationships": [{"from": "t", "to": "nope", "rel": "supports"},
                              {"from": "p1", "to": "p1", "rel": "relates_to"},
                              {"from": "p1", "to": "t", "rel": "contains"},
                              {"from": "p1", "to": "t", "rel": "contains"},
                              {"from": "p2", "to": "t", "rel": "contains"}]})
    assert [(e["field"], e["code"]) for e in caught.value.field_errors] == [
        ("args.entities[1].temp_id", "duplicate"),
        ("args.relationships[0].to", "unknown_temp_id"),
        ("args.relationships[1]", "self_link"),
        ("args.relationships[3]", "duplicate"),
        ("args.relationships[4]", "conflicting_containment")]
    assert demo.dump() == before


def test_relationships_in_other_directions_become_edges(demo):
    ran = run(demo, CREATE, {"project": {"name": "P"}, "entities": [
        entity("t", "task", "T"), entity("g", "goal", "G"), entity("p", "plan", "Pl")],
        "relationships": [{"from": "g", "to": "t", "rel": "supports"}, {"from": "t", "to": "p", "rel": "contains"}]})
    ids = ran.result["id_map"]
    created = row(demo, "task", ids["t"])
    assert created["goal_id"] is None and created["plan_id"] is None
    assert len(ran.result["created"]["edge"]) == 2


def test_user_props_clarifications_are_extended_not_replaced(demo):
    ran = run(demo, CREATE, {"project": {"name": "P", "props": {"clarifications": [{"key": "old"}], "x": 1}},
                             "entities": [], "relationships": [],
                             "clarifications": [{"key": "new", "question": "Q?"}]})
    assert ran.result["project"]["props"] == {
        "x": 1, "clarifications": [{"key": "old"}, {"required": False, "key": "new", "question": "Q?"}]}
