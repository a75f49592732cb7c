"""Requests for several things: each thing's op in the top five, single requests as before, safety kept."""

from __future__ import annotations

import itertools

import pytest
from opgate.core import Gateway
from opgate.core.search._intent import default_intent_reader
from opgate.core.search._rules import is_destructive

# Requests for several ops of the built-in catalogue, with every op each needs.
MULTI_OP = [
    ("create a task and link it to the goal", {"onto.task.create", "onto.edge.link"}),
    ("list the tasks and the goals", {"onto.task.list", "onto.goal.list"}),
    ("create a folder and move the spec into it", {"onto.document.create", "onto.document.tree.move"}),
    ("find the budget task and mark it done", {"onto.task.search", "onto.task.update"}),
    ("make a project called Atlas and add a first task to it", {"onto.project.create", "onto.task.create"}),
    ("delete the old plan and create a new one", {"onto.plan.delete", "onto.plan.create"}),
    ("tasks, risks, milestones of the project", {"onto.risk.list", "onto.milestone.list"}),
    ("show me the milestones and mark the beta milestone done", {"onto.milestone.list", "onto.milestone.update"}),
    ("list templates for projects and request a new one for events", {"onto.template.list", "onto.template.request"}),
    ("get the project graph and then reorganize it", {"onto.project.graph.get", "onto.project.graph.reorganize"}),
    ("mark the permit task done and create a follow-up task", {"onto.task.update", "onto.task.create"}),
    ("search the web for venue prices and save the results in a new doc", {"util.web.search", "onto.document.create"}),
    ("new goal, new plan, new task", {"onto.goal.create", "onto.plan.create", "onto.task.create"}),
    ("update the risk, update the decision", {"onto.risk.update", "onto.decision.update"}),
    ("list requirements for the mobile app and update the login requirement", {"onto.requirement.list", "onto.requirement.update"}),
    # Found only since facets: comma lists of things, a question after a colon, misspelt verbs, "with" another thing.
    ("the project's tasks, its documents", {"onto.task.list", "onto.document.list"}),
    ("get me ready for the planning meeting: what tasks are open and what risks we have", {"onto.task.list", "onto.risk.list"}),
    ("vist the page and creat a task", {"util.web.visit", "onto.task.create"}),
    ("goals, plans, outputs", {"onto.goal.list", "onto.plan.list", "onto.output.list"}),
    ("set up a project with a goal", {"onto.project.create", "onto.goal.create"}),
    ("I'm planning the offsite. Create a project for it and list the open risks.", {"onto.project.create", "onto.risk.list"}),
    ("Can you list the decisions? Also show the milestones.", {"onto.decision.list", "onto.milestone.list"}),
]

# Requests for one thing, some with "and", commas or "with": read as one facet, ranked as the whole request.
SINGLE_INTENT = [
    "search tasks about sales and marketing",
    "create a task in the Relay project with a due date",
    "show tasks that are blocked and overdue",
    "find the doc about pricing, hiring and onboarding",
    "mark the task as done",
    "what's on my plate",
    "I'm stuck on the API migration",
    "Move the API Spec doc under the Engineering folder",
    "list the goals of the project, newest first",
    "show me tasks assigned to Ana and due this week",
    "Can you find and open the onboarding document?",
    "As a new member of the team, I would like to see the plan for the launch.",
]

# Requests for several things, none of which asks to remove anything.
NOT_REMOVALS = [
    "create a task and link it to the goal",
    "finish the task and close the goal",
    "list the plans, archive the old one and start a new one",
    "tidy up the documents and show the folder tree",
    "show what is linked to the goal and move the spec doc",
    "close the milestone and wrap up the plan",
    "review the risks, then update the decision",
]


def _results(gateway: Gateway, query: str, limit: int = 5) -> list[dict]:
    answer = gateway.search(query, limit=limit)
    assert answer["ok"], answer
    return answer["results"]


@pytest.mark.parametrize(("query", "ops"), MULTI_OP)
def test_a_request_for_several_ops_returns_each_in_the_top_five(gateway, query, ops):
    found = {r["op"] for r in _results(gateway, query, 5)}
    assert ops <= found, f"{query!r}: missing {sorted(ops - found)}"


@pytest.mark.parametrize(("query", "ops"), MULTI_OP)
def test_several_ops_keep_confidence_falling_down_the_list(gateway, query, ops):
    confidences = [r["confidence"] for r in _results(gateway, query, 10)]
    assert confidences == sorted(confidences, reverse=True)
    assert all(0.0 <= c <= 1.0 for c in confidences)


@pytest.mark.parametrize("query", SINGLE_INTENT)
def test_a_single_request_is_one_facet_ranked_as_the_whole_request(gateway, query):
    index = gateway.search_index
    assert len(index.intents.read_request(query, index._knows).facets) == 1
    whole = [r.record.op for r in itertools.islice(index._ranked_one(query, index.intents.read_request(query), lambda r: True, 0.15), 10)]
    assert [r["op"] for r in _results(gateway, query, 10)] == whole


@pytest.mark.parametrize("query", NOT_REMOVALS)
def test_no_destructive_op_leads_a_request_for_several_things_that_removes_nothing(gateway, query):
    records = {r.op: r for r in gateway.search_index.records}
    results = _results(gateway, query, 5)
    assert results, query
    assert not is_destructive(records[results[0]["op"]]), f"{query!r} -> {results[0]['op']}"


def test_a_state_change_among_several_ops_keeps_its_suggested_arguments(gateway):
    results = _results(gateway, "mark the permit task done and create a follow-up task", 5)
    by_op = {r["op"]: r for r in results}
    assert results[0]["op"] == "onto.task.update"
    assert by_op["onto.task.update"]["suggested_args"] == {"state_key": "done"}
    assert "onto.task.create" in by_op and "suggested_args" not in by_op["onto.task.create"]


def test_a_removal_asked_as_one_facet_is_found_but_does_not_take_the_other_facets_place(gateway):
    ops = [r["op"] for r in _results(gateway, "delete the duplicate task and create the goal", 5)]
    assert {"onto.task.delete", "onto.goal.create"} <= set(ops)


@pytest.mark.parametrize(
    ("query", "facets"),
    [
        ("create a task and link it to the goal", ("create a task", "link it to the goal")),
        ("list the tasks and the goals", ("list the tasks", "list the goals")),
        ("tasks, risks, milestones of the project", ("tasks", "risks", "milestones of the project")),
        ("set up a project with a goal", ("set up a project", "set up a goal")),
        ("creat a task and vist the page", ("create a task", "visit the page")),
        ("create a task and then mark it done", ("create a task", "mark it done task")),
        ("I'm off to Lisbon. Can you find a hotel and check the weather?", ("find a hotel", "check the weather")),
        ("display the stories, including their titles, authors and upvotes", ("display the stories, including their titles, authors and upvotes",)),
        ("as a user, I need to change the permissions of a file", ("as a user, i need to change the permissions of a file",)),
    ],
)
def test_facets_of_a_request(query, facets):
    assert default_intent_reader().read_request(query).facets == facets


def test_a_word_the_catalogue_has_is_not_taken_for_a_misspelt_verb():
    reader = default_intent_reader()
    assert reader.read_request("find the tasks and past goals", known=lambda word: False).facets == ("find the tasks", "post goals")
    assert reader.read_request("find the tasks and past goals", known=lambda word: word == "past").facets == ("find the tasks", "find past goals")


# -- with the semantic ranker: each facet is ranked by the same fusion as the whole request ---------


@pytest.fixture(scope="module")
def semantic() -> Gateway:
    gateway = Gateway(search="semantic", call_log=False)
    yield gateway
    gateway.close()


@pytest.mark.parametrize(("query", "ops"), [MULTI_OP[0], MULTI_OP[2], MULTI_OP[10], MULTI_OP[12], MULTI_OP[-5], MULTI_OP[-1]])
def test_the_semantic_ranker_returns_each_op_of_a_request_for_several(semantic, query, ops):
    found = {r["op"] for r in _results(semantic, query, 5)}
    assert ops <= found, f"{query!r}: missing {sorted(ops - found)}"


def test_the_semantic_ranker_keeps_safety_and_state_changes_among_several_ops(semantic):
    records = {r.op: r for r in semantic.search_index.records}
    for query in NOT_REMOVALS:
        first = _results(semantic, query, 5)[0]["op"]
        assert not is_destructive(records[first]), f"{query!r} -> {first}"
    top = _results(semantic, "mark the permit task done and create a follow-up task", 5)[0]
    assert top["op"] == "onto.task.update" and top["suggested_args"] == {"state_key": "done"}
