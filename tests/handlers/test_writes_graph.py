"""Linking, unlinking and reorganising a project's graph."""

from __future__ import annotations

import pytest
from test_writes_harness import (  # noqa: F401
    demo, edge, goal, milestone, output, plan, project, risk, row, run, task,
)

from opgate.core.exec._errors import ConflictError, InvalidArguments, NotFoundError
from opgate.core.store import Conflict, NotFound

LINK, UNLINK, REORGANIZE = "onto.edge.link", "onto.edge.unlink", "onto.project.graph.reorganize"


def edge_args(src_kind, src_id, rel, dst_kind, dst_id, **extra):
    return {"src_kind": src_kind, "src_id": src_id, "dst_kind": dst_kind, "dst_id": dst_id, "rel": rel, **extra}


def test_link_creates_an_edge_with_props(demo):
    ran = run(demo, LINK, edge_args("task", task(23), "produces", "output", output(3), props={"note": "n"}))
    with demo.read() as tx:
        assert tx.get_edge(ran.result["edge"]["id"]) == ran.result["edge"]
    assert ran.result["edge"]["props"] == {"note": "n"}


def test_link_allows_edges_across_projects(demo):
    ran = run(demo, LINK, edge_args("task", task(1), "relates_to", "task", task(10)))
    assert ran.result["edge"]["dst_id"] == task(10)


def test_link_twice_is_a_conflict_that_names_the_edge(demo):
    with pytest.raises(ConflictError) as caught:
        run(demo, LINK, edge_args("task", task(2), "depends_on", "task", task(1)))
    assert caught.value.details["edge_id"] == edge(2)


def test_link_checks_each_end_exists_with_its_kind(demo):
    with pytest.raises(InvalidArguments) as caught:
        run(demo, LINK, edge_args("task", goal(1), "supports", "goal", task(1)))
    assert [e["field"] for e in caught.value.field_errors] == ["args.src_id", "args.dst_id"]
    with pytest.raises(NotFoundError):
        run(demo, LINK, edge_args("task", "20000000-0000-4000-8000-000000000099", "supports", "goal", goal(1)))


def test_link_refuses_a_self_link(demo):
    with pytest.raises(InvalidArguments):
        run(demo, LINK, edge_args("task", task(1), "relates_to", "task", task(1)))


def test_unlink_returns_the_removed_edge_and_then_not_found(demo):
    ran = run(demo, UNLINK, {"edge_id": edge(14)})
    assert ran.result["removed"]["id"] == edge(14)
    with pytest.raises(NotFound):
        run(demo, UNLINK, {"edge_id": edge(14)})


def test_reorganize_moves_removes_and_adds_all_together(demo):
    ran = run(demo, REORGANIZE, {
        "project_id": project(1),
        "moves": [{"kind": "task", "id": task(7), "supporting_milestone_id": milestone(3), "plan_id": None}],
        "add_edges": [edge_args("task", task(6), "produces", "output", output(1))],
        "remove_edge_ids": [edge(14)],
    })
    assert ran.result["applied"] is True
    assert [c["action"] for c in ran.result["changes"]] == ["move", "remove_edge", "add_edge"]
    assert ran.result["changes"][0]["fields"] == {
        "plan_id": {"before": plan(1), "after": None},
        "supporting_milestone_id": {"before": None, "after": milestone(3)}}
    moved = row(demo, "task", task(7))
    assert (moved["plan_id"], moved["supporting_milestone_id"]) == (None, milestone(3))
    with demo.read() as tx:
        assert tx.find_edge(task(6), output(1), "produces") is not None
        assert tx.find_edge(task(7), "90000000-0000-4000-8000-000000000002", "relates_to") is None


def test_reorganize_reports_applied_false_in_a_dry_run_and_writes_nothing(demo):
    before = demo.dump()
    args = {"project_id": project(3), "moves": [{"kind": "task", "id": task(23), "plan_id": plan(5)}]}
    dry = run(demo, REORGANIZE, args, dry_run=True)
    assert dry.result["applied"] is False and demo.dump() == before
    real = run(demo, REORGANIZE, args)
    assert {**dry.result, "applied": True} == real.result


def test_reorganize_with_nothing_to_do_is_fine(demo):
    before = demo.dump()
    assert run(demo, REORGANIZE, {"project_id": project(1), "moves": []}).result == {"applied": True, "changes": []}
    assert demo.dump() == before


def test_a_move_that_changes_nothing_is_left_out_with_a_warning(demo):
    ran = run(demo, REORGANIZE, {"project_id": project(1), "moves": [{"kind": "task", "id": task(1), "plan_id": plan(1)}]})
    assert ran.result["changes"] == [] and "already sits" in ran.warnings[0]


def test_reorganize_reports_every_bad_item_and_writes_nothing(demo):
    before = demo.dump()
    with pytest.raises(InvalidArguments) as caught:
        run(demo, REORGANIZE, {
            "project_id": project(1),
            "moves": [{"kind": "task", "id": task(10), "plan_id": plan(1)},          # task of project 2
                      {"kind": "task", "id": task(2), "goal_id": goal(3)},           # goal of project 2
                      {"kind": "task", "id": task(3)},                               # says nothing
                      {"kind": "task", "id": task(4), "plan_id": plan(2)}],          # fine
            "add_edges": [edge_args("task", task(1), "supports", "goal", goal(4))],  # goal of project 3
            "remove_edge_ids": [edge(8)],                                            # edge of project 2
        })
    fields = [e["field"] for e in caught.value.field_errors]
    assert fields == ["args.moves[0].id", "args.moves[1].goal_id", "args.moves[2]",
                      "args.remove_edge_ids[0]", "args.add_edges[0].dst_id"]
    assert demo.dump() == before


def test_reorganize_refuses_other_kinds_and_twice_moved_tasks(demo):
    with pytest.raises(InvalidArguments) as caught:
        run(demo, REORGANIZE, {"project_id": project(1), "moves": [
            {"kind": "goal", "id": goal(1), "plan_id": plan(1)},
            {"kind": "task", "id": task(5), "plan_id": plan(1)},
            {"kind": "task", "id": task(5), "plan_id": plan(2)}]})
    assert [e["code"] for e in caught.value.field_errors] == ["not_in_enum", "duplicate"]


def test_missing_ids_alone_are_not_found(demo):
    with pytest.raises(NotFoundError):
        run(demo, REORGANIZE, {"project_id": project(1), "moves": [],
                               "remove_edge_ids": ["e0000000-0000-4000-8000-000000000099"]})


def test_adding_an_existing_edge_is_a_conflict_and_rolls_back_the_moves(demo):
    before = demo.dump()
    args = {"project_id": project(1), "moves": [{"kind": "task", "id": task(9), "plan_id": plan(1)}],
            "add_edges": [edge_args("task", task(6), "produces", "output", output(1))]}
    run(demo, REORGANIZE, args)
    after_first = demo.dump()
    assert after_first != before
    with pytest.raises(ConflictError) as caught:
        run(demo, REORGANIZE, {**args, "moves": [{"kind": "task", "id": task(9), "plan_id": None}]})
    assert caught.value.field_errors[0]["field"] == "args.add_edges[0]"
    assert demo.dump() == after_first


def test_removing_and_re_adding_an_edge_in_one_call_replaces_it(demo):
    ran = run(demo, REORGANIZE, {"project_id": project(1), "moves": [], "remove_edge_ids": [edge(2)],
                                 "add_edges": [edge_args("task", task(2), "depends_on", "task", task(1),
                                                         props={"why": "spec first"})]})
    with demo.read() as tx:
        assert tx.find_edge(task(2), task(1), "depends_on")["props"] == {"why": "spec first"}
    assert len(ran.result["changes"]) == 2


def test_self_links_and_repeated_edges_are_validation_errors(demo):
    with pytest.raises(InvalidArguments) as caught:
        run(demo, REORGANIZE, {"project_id": project(1), "moves": [], "add_edges": [
            edge_args("task", task(1), "relates_to", "task", task(1)),
            edge_args("task", task(1), "relates_to", "risk", risk(1)),
            edge_args("task", task(1), "relates_to", "risk", risk(1))]})
    assert [e["code"] for e in caught.value.field_errors] == ["self_link", "duplicate"]


def test_the_project_itself_is_an_endpoint_of_the_project(demo):
    ran = run(demo, REORGANIZE, {"project_id": project(1), "moves": [],
                                 "add_edges": [edge_args("project", project(1), "contains", "output", output(1))]})
    added = ran.result["changes"][0]["edge"]
    assert (added["src_kind"], added["src_id"]) == ("project", project(1))
