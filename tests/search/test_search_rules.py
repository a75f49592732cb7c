"""What people ask: the safety rule, state changes with suggested arguments, phrases, typos, several ops."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from opgate.core import Gateway, build_registry
from opgate.core.catalog import CatalogLoad, ToolDefinition, load_catalog
from opgate.core.search import SearchIndex
from opgate.core.search._rules import is_destructive

REPO = Path(__file__).resolve().parents[2]
REQUESTS = REPO / "bench" / "data" / "builtin_requests.json"

# Requests that change a state, with the update op and the state they mean.
STATE_CHANGES = [
    ("mark task done", "onto.task.update", "done"),
    ("mark the task as done", "onto.task.update", "done"),
    ("finish the task", "onto.task.update", "done"),
    ("close this task", "onto.task.update", "done"),
    ("complete the task", "onto.task.update", "done"),
    ("task done", "onto.task.update", "done"),
    ("reopen the task", "onto.task.update", "todo"),
    ("block the task", "onto.task.update", "blocked"),
    ("I'm stuck on the API migration", "onto.task.update", "blocked"),
    ("archive the project", "onto.project.update", "archived"),
    ("archive the doc", "onto.document.update", "archived"),
    ("pause the project", "onto.project.update", "paused"),
    ("publish the document", "onto.document.update", "published"),
    ("the goal is achieved", "onto.goal.update", "achieved"),
    ("abandon the goal", "onto.goal.update", "abandoned"),
    ("close the plan", "onto.plan.update", "complete"),
    ("the milestone was missed", "onto.milestone.update", "missed"),
    ("the risk is resolved", "onto.risk.update", "resolved"),
    ("the decision was accepted", "onto.decision.update", "accepted"),
    ("the requirement is approved", "onto.requirement.update", "approved"),
]
# Requests that do not ask to remove anything (on top of the state changes above).
NOT_REMOVALS = [
    "finish the goal", "wrap up the plan", "done with the document", "close the goal",
    "what's on my plate", "tasks", "link a task to a goal", "edit the document", "tidy up the tasks",
    "the plan is finished", "clean up the task list", "mark the plan complete", "the task is no longer needed as written, change it",
]
REMOVALS = [
    ("delete the task", "onto.task.delete"),
    ("remove a goal", "onto.goal.delete"),
    ("get rid of the plan", "onto.plan.delete"),
    ("delete the folder and everything in it", "onto.document.delete"),
    ("unlink the edge", "onto.edge.unlink"),
]


def _results(gateway: Gateway, query: str, limit: int = 5) -> list[dict]:
    answer = gateway.search(query, limit=limit)
    assert answer["ok"], answer
    return answer["results"]


@pytest.mark.parametrize("query", [q for q, _, _ in STATE_CHANGES] + NOT_REMOVALS)
def test_a_destructive_op_never_leads_a_request_that_removes_nothing(gateway, query):
    results = _results(gateway, query)
    assert results, query
    assert not is_destructive(gateway.registry.get(results[0]["op"])), (query, results[0]["op"])


@pytest.mark.parametrize(("query", "op", "state"), STATE_CHANGES)
def test_a_state_change_puts_the_update_first_with_the_state_to_set(gateway, query, op, state):
    top = _results(gateway, query)[0]
    assert top["op"] == op
    assert top["suggested_args"] == {"state_key": state}
    # The state is one the op's own schema allows.
    assert state in gateway.registry.get(op).parameters["properties"]["state_key"]["enum"]


@pytest.mark.parametrize(("query", "op"), REMOVALS)
def test_a_removal_request_still_finds_the_delete_first(gateway, query, op):
    assert _results(gateway, query)[0]["op"] == op


def test_reading_about_a_state_is_not_a_state_change(gateway):
    results = _results(gateway, "list the completed tasks")
    assert results[0]["op"] in {"onto.task.list", "onto.task.search"}
    assert not any("suggested_args" in r for r in results)


def test_naming_a_destructive_ops_own_action_lets_it_lead(gateway):
    # "reorganize" asks for the reorganize op by name: the one exception to the safety rule.
    assert _results(gateway, "reorganize the project graph")[0]["op"] == "onto.project.graph.reorganize"


def test_the_issue_cases(gateway):
    assert _results(gateway, "mark task done")[0]["op"] == "onto.task.update"
    assert "onto.task.update" in [r["op"] for r in _results(gateway, "finish the task")]
    assert _results(gateway, "close this task")[0]["op"] == "onto.task.update"
    # Seed 000 §9's own phrasing: the hybrid lane takes the top results.
    assert "onto.document.tree.move" in [r["op"] for r in _results(gateway, "Move the API Spec doc under the Engineering folder", 3)]


@pytest.mark.parametrize(
    ("query", "op"),
    [("add to my to-do list", "onto.task.create"), ("what's on my plate", "onto.task.list"), ("show the folder tree", "onto.document.tree.get"), ("blockers", "onto.task.list")],
)
def test_everyday_words_find_their_op(gateway, query, op):
    assert op in [r["op"] for r in _results(gateway, query, 3)]


@pytest.mark.parametrize(("query", "op"), [("creat a taks", "onto.task.create"), ("mvoe document to folder", "onto.document.tree.move"), ("requirments", "onto.requirement.list")])
def test_typos_are_corrected_against_the_index(gateway, query, op):
    assert op in [r["op"] for r in _results(gateway, query, 3)]


@pytest.mark.parametrize(
    ("query", "op"),
    [
        ("create a new task in the Relay project", "onto.task.create"),
        ("add a task to call the venue", "onto.task.create"),
        ("create a new project", "onto.project.create"),
        ("link a task to a goal", "onto.edge.link"),
    ],
)
def test_the_verb_lifts_its_ops_on_the_things_the_request_names(gateway, query, op):
    assert _results(gateway, query, 1)[0]["op"] == op


def test_a_long_request_is_not_typo_corrected():
    empty = {"type": "object", "properties": {}}
    index = _tools(
        ToolDefinition(name="bing_search", description="Searches the web with Bing.", parameters=empty),
        ToolDefinition(name="potluck_planner", description="Plans a potluck: who cooks which dish.", parameters=empty),
    )
    # "bring" is one letter from "bing": a typo in a one-word request, an everyday word in a long one.
    assert "bing" in index.lexical.query_terms("bring")
    long = "We are hosting a potluck on Saturday and I need to know what everyone should bring along"
    assert "bing" not in index.lexical.query_terms(long)
    assert [h.tool_name for h in index.search(long, limit=5) if h.confidence >= 0.05] == ["potluck_planner"]


def test_situation_words_reach_the_words_a_catalogue_uses():
    empty = {"type": "object", "properties": {}}
    index = _tools(
        ToolDefinition(name="breach_check", description="Checks whether credentials were exposed in data breaches.", parameters=empty),
        ToolDefinition(name="wait_times", description="Waiting times at theme parks.", parameters=empty),
        ToolDefinition(name="mail_reader", description="Reads your inbox.", parameters=empty),
    )
    assert index.search("did my password turn up in a leak", limit=1)[0].tool_name == "breach_check"
    assert index.search("how long are the queues at the rides", limit=1)[0].tool_name == "wait_times"


@pytest.mark.parametrize(
    ("query", "ops"),
    [
        ("create a task and link it to the goal", {"onto.task.create", "onto.edge.link"}),
        ("find the budget task and mark it done", {"onto.task.search", "onto.task.update"}),
        ("create a folder and move the spec into it", {"onto.document.create", "onto.document.tree.move"}),
    ],
)
def test_a_request_for_several_ops_gets_each(gateway, query, ops):
    assert ops <= {r["op"] for r in _results(gateway, query, 5)}


def test_search_returns_the_ranking_up_to_the_limit(gateway):
    # No confidence floor: an agent asking for five candidates gets five, with confidences that say how sure.
    results = _results(gateway, "edit the document", 5)
    assert len(results) == 5
    confidences = [r["confidence"] for r in results]
    assert confidences == sorted(confidences, reverse=True)


def test_an_off_topic_request_in_a_group_is_no_match_in_category(gateway):
    answer = gateway.search("weather forecast for tomorrow", path="onto.task")
    assert answer["error"]["code"] == "NO_MATCH_IN_CATEGORY"
    assert gateway.search("xyzzy qwertz")["results"] == []


# -- what is indexed ------------------------------------------------------------------------


def _tools(*tools: ToolDefinition) -> SearchIndex:
    return SearchIndex.build(build_registry([CatalogLoad("test", "demo", list(tools))]))


def test_guidance_in_a_description_is_not_matched():
    empty = {"type": "object", "properties": {}}
    index = _tools(
        ToolDefinition(name="remove_card", description="Removes a card from the board. Never use this to mark a card done: update it instead.", parameters=empty),
        ToolDefinition(name="change_card", description="Changes fields of a card.", parameters=empty),
    )
    assert [h.tool_name for h in index.search("mark card done", limit=2)][0] == "change_card"


def test_search_phrases_from_x_opgate_are_indexed(tmp_path):
    tool = {
        "type": "function",
        "function": {"name": "archive_invoice", "description": "Moves an invoice to cold storage.", "parameters": {"type": "object", "properties": {}}},
        "x-opgate": {"summary": "Move an invoice to cold storage", "search_phrases": ["file away a bill", "put a receipt in the drawer"]},
    }
    other = {"type": "function", "function": {"name": "list_invoices", "description": "Lists invoices.", "parameters": {"type": "object", "properties": {}}}}
    path = tmp_path / "billing.json"
    path.write_text(json.dumps([tool, other]), encoding="utf-8")
    registry = build_registry(load_catalog(path))
    assert registry.get(next(r.op for r in registry if r.tool_name == "archive_invoice")).metadata.search_phrases
    assert SearchIndex.build(registry).search("put this receipt in the drawer", limit=1)[0].tool_name == "archive_invoice"


def test_every_builtin_op_has_search_phrases(gateway):
    assert all(r.metadata.search_phrases for r in gateway.registry)


def test_upstream_ops_get_words_from_their_http_path():
    empty = {"type": "object", "properties": {}}
    index = _tools(
        ToolDefinition(name="op_one", description="", parameters=empty, http="GET /v1/Invoices/{Sid}/Attachments"),
        ToolDefinition(name="op_two", description="", parameters=empty, http="GET /v1/Customers"),
    )
    assert index.search("invoice attachments", limit=1)[0].tool_name == "op_one"


# -- the labelled requests ------------------------------------------------------------------------


@pytest.mark.parametrize("part", ["tune", "heldback"])
def test_the_builtin_requests_meet_the_issue_goals(gateway, part):
    requests = json.loads(REQUESTS.read_text(encoding="utf-8"))[part]
    assert len(json.loads(REQUESTS.read_text(encoding="utf-8"))["tune"]) + len(json.loads(REQUESTS.read_text(encoding="utf-8"))["heldback"]) >= 300
    r1 = r5 = 0.0
    for request in requests:
        slots = [set(slot.split("|")) for slot in request["relevant"]]
        found = [r["op"] for r in _results(gateway, request["query"], 5)]
        assert found, f"empty answer for an in-domain request: {request['query']!r}"
        r1 += sum(bool(slot & set(found[:1])) for slot in slots) / len(slots)
        r5 += sum(bool(slot & set(found)) for slot in slots) / len(slots)
    assert 100 * r5 / len(requests) >= 85
    assert 100 * r1 / len(requests) >= 65


def test_a_verbs_lifted_and_barred_ops_are_worked_out_once_and_equal_the_rule(gateway):
    """Requests naming the same verb (or its synonyms) share one lifted set and one barred set, equal to the rule worked out from scratch."""
    index = gateway.search_index
    rules, lexical = index.rules, index.lexical
    found = {}
    for query in ("create one", "make one", "add one", "create a task", "make a new goal", "create a task in the project", "delete the task", "list tasks", "list them"):
        intent = index.read_request(query)
        terms = set(lexical.query_terms(query))
        lifted, barred = rules.factors(intent, terms)
        named: set[int] = set()
        for term in sorted(t for t in terms if t in rules._by_action_term):
            ops = rules._by_action_term[term]
            by_entity = rules._by_entity_of(term)
            narrowed = [d for entity in intent.entities for d in by_entity.get(entity, ())] if intent.entities else []
            named.update([*narrowed, *by_entity.get(None, ())] if narrowed else ops)
        assert lifted == named, query
        assert barred == (set() if intent.asks_removal else set(rules.destructive) - named), query
        found[query] = (lifted, barred)
    # "create", "make" and "add" are one verb: the same set object, so what is kept per set is worked out once.
    assert found["create one"][0] and found["create one"][0] is found["make one"][0] is found["add one"][0]
    assert found["create one"][1] is found["add one"][1]
    assert found["create one"][0] != found["list them"][0]
