"""Every write op through ``Gateway.exec``: the catalogue's examples do what they say,
and a dry run answers exactly like the real run while writing nothing."""

from __future__ import annotations

import pytest
from test_writes_harness import (  # noqa: F401
    NOW, REGISTRY, WRITE_OPS, demo, doc, edge, known_ids, row, task, without_new_ids,
)

from opgate.core import Gateway

EXAMPLES = [(record.op, index) for record in sorted(REGISTRY, key=lambda r: r.op) if record.kind == "write"
            for index in range(len(record.examples))]


def example_args(op: str, index: int) -> dict:
    return dict(REGISTRY.get(op).examples[index]["args"])


@pytest.fixture
def gateway(demo):
    asked: list = []

    def approve(request):
        asked.append(request)
        return True

    gw = Gateway(store=demo, allow_write=True, approver=approve, call_log=False)
    gw.asked = asked
    return gw


def test_every_write_op_has_an_example():
    assert sorted({op for op, _ in EXAMPLES}) == WRITE_OPS


# -- the store changed as each example says ---------------------------------------

def _entity_kind(op: str) -> str:
    return op.split(".")[1]


def check_create(store, op, args, result):
    kind = _entity_kind(op)
    stored = row(store, kind, result[kind]["id"])
    assert stored == result[kind]
    assert all(stored[name] == value for name, value in args.items())


def check_update(store, op, args, result):
    kind = _entity_kind(op)
    stored = row(store, kind, args[f"{kind}_id"])
    assert stored == result[kind] and result["changed_fields"]
    assert all(stored[name] == value for name, value in args.items() if name != f"{kind}_id")


def check_delete(store, op, args, result):
    kind = _entity_kind(op)
    assert row(store, kind, args[f"{kind}_id"]) is None
    for gone in result["also_deleted"]:
        assert row(store, gone["kind"], gone["id"]) is None


def check_link(store, op, args, result):
    with store.read() as tx:
        assert tx.find_edge(args["src_id"], args["dst_id"], args["rel"]) == result["edge"]


def check_unlink(store, op, args, result):
    with store.read() as tx:
        assert tx.find_edge(result["removed"]["src_id"], result["removed"]["dst_id"], result["removed"]["rel"]) is None


def check_move(store, op, args, result):
    moved = row(store, "document", args["document_id"])
    assert moved["parent_id"] == args["new_parent_id"] == result["new_parent_id"]
    if "position" in args:
        assert moved["position"] == args["position"]


def check_attach(store, op, args, result):
    with store.read() as tx:
        linked = {d["id"]: d["role"] for d in tx.task_documents(args["task_id"])}
    assert linked[result["document"]["id"]] == args["role"]
    assert result["created"] is ("title" in args)


def check_create_project(store, op, args, result):
    assert row(store, "project", result["project"]["id"])["name"] == args["project"]["name"]
    for item in args["entities"]:
        stored = row(store, item["kind"], result["id_map"][item["temp_id"]])
        assert item["name"] in stored.values()


def check_reorganize(store, op, args, result):
    assert result["applied"] is (args["dry_run"] is False)
    for move in args["moves"]:
        stored = row(store, "task", move["id"])
        for name in ("plan_id", "goal_id", "supporting_milestone_id"):
            if name in move and result["applied"]:
                assert stored[name] == move[name]


def check_template(store, op, args, result):
    assert row(store, "template", result["template"]["id"])["status"] == "requested"


CHECKS = {"create": check_create, "update": check_update, "delete": check_delete, "link": check_link,
          "unlink": check_unlink, "move": check_move, "create_or_attach": check_attach,
          "reorganize": check_reorganize, "request": check_template}


def check_for(op: str):
    return check_create_project if op == "onto.project.create" else CHECKS[op.rsplit(".", 1)[1]]


@pytest.mark.parametrize("op, index", EXAMPLES)
def test_catalogue_example_runs_and_changes_the_store_as_described(gateway, demo, op, index):
    args = example_args(op, index)
    before = demo.dump()
    envelope = gateway.exec(op, args)
    assert envelope["ok"], envelope["error"]
    check_for(op)(demo, op, args, envelope["result"])
    previews_only = args.get("dry_run") is True
    assert (demo.dump() == before) is previews_only
    asked = REGISTRY.get(op).requires_confirmation and not previews_only
    assert [r.op for r in gateway.asked] == ([op] if asked else [])


@pytest.mark.parametrize("op, index", EXAMPLES)
def test_dry_run_writes_nothing_and_answers_like_the_real_run(gateway, demo, op, index):
    args = example_args(op, index)
    if "dry_run" in args:
        args["dry_run"] = False  # the op's own switch; exec's dry_run below overrides it
    before = demo.dump()
    old_ids = known_ids(before)
    dry = gateway.exec(op, args, dry_run=True)
    assert dry["ok"], dry["error"]
    assert dry["meta"]["dry_run"] is True and demo.dump() == before
    real = gateway.exec(op, args)
    assert real["ok"], real["error"]
    assert demo.dump() != before
    dry_result, real_result = dict(dry["result"]), dict(real["result"])
    if op == "onto.project.graph.reorganize":
        assert (dry_result.pop("applied"), real_result.pop("applied")) == (False, True)
    assert without_new_ids(dry_result, old_ids) == without_new_ids(real_result, old_ids)
    assert without_new_ids(dry["meta"]["diff"], old_ids) == without_new_ids(real["meta"]["diff"], old_ids)


def test_errors_come_back_as_envelopes(gateway, demo):
    before = demo.dump()
    cycle = gateway.exec("onto.document.tree.move", {"project_id": "10000000-0000-4000-8000-000000000001",
                                                     "document_id": doc(1), "new_parent_id": doc(5)})
    assert cycle["error"]["code"] == "CONFLICT"
    other = gateway.exec("onto.task.doc.create_or_attach", {"task_id": task(1), "document_id": doc(10)})
    assert other["error"]["code"] == "VALIDATION_ERROR"
    assert other["error"]["details"]["field_errors"][0]["field"] == "args.document_id"
    gone = gateway.exec("onto.edge.unlink", {"edge_id": "e0000000-0000-4000-8000-000000000099"})
    assert gone["error"]["code"] == "NOT_FOUND"
    children = gateway.exec("onto.document.delete", {"document_id": doc(23)})
    assert children["error"]["code"] == "CONFLICT"
    assert demo.dump() == before


def test_reorganize_previews_by_default_and_a_repeat_apply_conflicts(gateway, demo):
    args = example_args("onto.project.graph.reorganize", 0)
    del args["dry_run"]
    before = demo.dump()
    preview = gateway.exec("onto.project.graph.reorganize", args)
    assert preview["result"]["applied"] is False and demo.dump() == before
    applied = gateway.exec("onto.project.graph.reorganize", {**args, "dry_run": False})
    assert applied["result"]["applied"] is True
    again = gateway.exec("onto.project.graph.reorganize", {**args, "dry_run": False})
    assert again["error"]["code"] == "CONFLICT"


def test_a_declined_confirmation_writes_nothing(demo):
    gateway = Gateway(store=demo, allow_write=True, approver=lambda request: False, call_log=False)
    before = demo.dump()
    refused = gateway.exec("onto.task.delete", {"task_id": task(9)})
    assert refused["error"]["code"] == "PERMISSION_DENIED" and demo.dump() == before
