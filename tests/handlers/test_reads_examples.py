"""Every catalogue example of every read op, through Gateway.exec, on the demo workspace.

Each example must answer ``ok`` and its result must show the property the
example is about (its filter holds, the named thing is found, ...). Running
them all must leave the workspace exactly as it was.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from opgate.core import Gateway
from opgate.core.handlers._read_table import HANDLERS
from opgate.core.handlers._summaries import PLURALS
from opgate.core.store import ENTITY_KINDS, KINDS, open_store

MISSING_SUFFIX = "-0000-4000-8000-999999999999"
FILTER_KEYS = {"state_key": "state", "type_key": "type", "impact": "impact"}


@pytest.fixture(scope="module")
def gateway(tmp_path_factory, fresh_workspace):
    store = open_store(fresh_workspace(tmp_path_factory.mktemp("reads")))
    opened = Gateway(store=store)
    yield opened
    opened.close()


def _lists(kind: str) -> Callable[[dict, dict], None]:
    def check(result: dict, args: dict) -> None:
        items = result[PLURALS[kind]]
        assert items and result["total"] >= len(items) and len(items) <= args.get("limit", 50)
        for arg, key in FILTER_KEYS.items():
            if arg in args:
                assert all(item[key] == args[arg] for item in items)
    return check


def _searches(kind: str) -> Callable[[dict, dict], None]:
    def check(result: dict, args: dict) -> None:
        _lists(kind)(result, args)
        best = result[PLURALS[kind]][0][KINDS[kind].display].lower()
        assert all(word.lower() in best for word in args["search"].split())
    return check


def _gets(kind: str) -> Callable[[dict, dict], None]:
    def check(result: dict, args: dict) -> None:
        assert result[kind]["id"] == args[f"{kind}_id"]
        if kind == "project":
            assert result["tasks"] and result["counts"]["tasks"] == len(result["tasks"])
        if kind == "task":
            assert isinstance(result["edges"], list)
            assert all(set(d) == {"id", "title", "state", "type", "role"} for d in result["documents"])
    return check


def _task_documents(result: dict, args: dict) -> None:
    assert result["documents"] and result["task_id"] == args["task_id"]
    assert all(d["role"] == args.get("role", d["role"]) for d in result["documents"])


def _search_ontology(result: dict, args: dict) -> None:
    assert result["results"]
    assert all(hit["kind"] in args.get("types", ENTITY_KINDS) for hit in result["results"])
    assert all(hit["project_id"] == args.get("project_id", hit["project_id"]) for hit in result["results"])


def _graph(result: dict, args: dict) -> None:
    kinds = {n["kind"] for n in result["nodes"]}
    assert "project" in kinds and len(result["nodes"]) > 1 and result["containment"]
    assert kinds <= {"project", *args.get("include", ENTITY_KINDS)}


def _tree(result: dict, args: dict) -> None:
    assert result["tree"]
    if args.get("include_documents") is False:
        stack = list(result["tree"])
        while stack:
            node = stack.pop()
            assert node["type_key"] == "document.folder"
            stack += node["children"]


def _path(result: dict, args: dict) -> None:
    assert result["path"][-1]["id"] == args["document_id"] and len(result["path"]) > 1
    assert result["path_text"] == " / ".join(step["title"] for step in result["path"])


def _relationships(result: dict, args: dict) -> None:
    assert result["edges"] and result["entity"]["id"] == args["entity_id"]
    key = {"outgoing": "src_id", "incoming": "dst_id"}.get(args.get("direction", "both"))
    assert all(args["entity_id"] in ((e[key],) if key else (e["src_id"], e["dst_id"])) for e in result["edges"])


def _linked(result: dict, args: dict) -> None:
    assert result["linked"] and all(item["name"] for item in result["linked"])
    assert all(item["rel"] == args.get("rel", item["rel"]) for item in result["linked"])


def _templates(result: dict, args: dict) -> None:
    assert result["templates"]
    assert all(t["scope"] == args.get("scope", t["scope"]) for t in result["templates"])


def _field_info(result: dict, args: dict) -> None:
    assert result["entity_type"] == args["entity_type"]
    if "field_name" in args:
        assert result["field_name"] == args["field_name"] and result["field"]["description"]
    else:
        assert {"id", "title", "state_key"} <= set(result["fields"])


def _knowledge(title: str) -> Callable[[dict, dict], None]:
    def check(result: dict, args: dict) -> None:
        assert result["documentTitle"] == title and result["sections"]
    return check


CHECKS: dict[str, Callable[[dict, dict], None]] = {
    **{f"onto.{k}.list": _lists(k) for k in ENTITY_KINDS},
    **{f"onto.{k}.search": _searches(k) for k in ENTITY_KINDS},
    **{f"onto.{k}.get": _gets(k) for k in ENTITY_KINDS},
    "onto.task.docs.list": _task_documents,
    "onto.search": _search_ontology,
    "onto.project.graph.get": _graph,
    "onto.document.tree.get": _tree,
    "onto.document.path.get": _path,
    "onto.entity.relationships.get": _relationships,
    "onto.entity.links.get": _linked,
    "onto.template.list": _templates,
    "util.schema.field_info": _field_info,
    "util.buildos.overview": _knowledge("opgate Overview"),
    "util.buildos.usage_guide": _knowledge("opgate Usage Guide"),
}

REGISTRY = Gateway().registry
EXAMPLES = [
    pytest.param(record.op, example["args"], id=f"{record.op}:{example.get('title', '')}")
    for record in REGISTRY
    if record.op in HANDLERS
    for example in record.examples
]


def test_every_read_op_has_a_handler_a_check_and_examples():
    reads = {r.op for r in REGISTRY if r.kind == "read" and not r.op.startswith("util.web.")}
    assert set(HANDLERS) == reads == set(CHECKS)
    assert {op for op, *_ in (p.values for p in EXAMPLES)} == reads


@pytest.mark.parametrize(("op", "args"), EXAMPLES)
def test_catalogue_example_runs_and_shows_its_point(gateway, op, args):
    envelope = gateway.exec(op, args)
    assert envelope["ok"], envelope
    CHECKS[op](envelope["result"], args)


@pytest.mark.parametrize("kind", ENTITY_KINDS)
def test_details_of_an_unknown_id_are_not_found(gateway, kind):
    missing = f"{KINDS[kind].number:x}0000000{MISSING_SUFFIX}"
    envelope = gateway.exec(f"onto.{kind}.get", {f"{kind}_id": missing})
    assert not envelope["ok"] and envelope["error"]["code"] == "NOT_FOUND"


def test_wrong_entity_kind_hint_is_not_found(gateway):
    envelope = gateway.exec("onto.entity.links.get", {
        "entity_id": "20000000-0000-4000-8000-000000000003", "entity_kind": "risk"})
    assert envelope["error"]["code"] == "NOT_FOUND" and "it is a task" in envelope["error"]["message"]


def test_reads_leave_the_workspace_unchanged(gateway):
    before = gateway.store.dump()
    for record in REGISTRY:
        for example in record.examples if record.op in HANDLERS else ():
            gateway.exec(record.op, example["args"])
    assert gateway.store.dump() == before
