"""Deep document trees and deeply nested props, through the real gateway on a real workspace file.

A 500-level chain of documents used to make onto.document.tree.get answer
INTERNAL, and 500-level props made writes answer INTERNAL; values a few
hundred levels deep were stored and then could not be read over MCP.
"""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.store import CUT_MARKER, MAX_VALUE_DEPTH, connect_store

PROJECT = "10000000-0000-4000-8000-000000000001"
TREE_LIMIT = 20


def json_depth(value) -> int:
    """Levels of objects and arrays in ``value``, counted without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        node, level = stack.pop()
        if isinstance(node, dict):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in node.values())
        elif isinstance(node, list):
            deepest = max(deepest, level)
            stack.extend((v, level + 1) for v in node)
    return deepest


def nested(levels: int) -> dict:
    value: dict = {}
    for _ in range(levels - 1):
        value = {"a": value}
    return value


@pytest.fixture
def gateway(tmp_path, new_workspace):
    opened = Gateway(db_path=new_workspace(tmp_path), allow_write=True, approver=lambda request: True)
    yield opened
    opened.close()


def chain(gateway: Gateway, length: int, type_key: str = "document.note") -> list[str]:
    """``length`` documents, each the only child of the one before; returns their ids, top first."""
    ids: list[str] = []
    with gateway.store.write() as tx:
        for n in range(length):
            fields = {"project_id": PROJECT, "title": f"Level {n}", "type_key": type_key}
            ids.append(tx.insert("document", {**fields, "parent_id": ids[-1] if ids else None})["id"])
    return ids


def walk_down(tree: list[dict]) -> list[dict]:
    """The nodes along the first child of each level."""
    nodes = []
    while tree:
        nodes.append(tree[0])
        tree = tree[0]["children"]
    return nodes


# -- trees -------------------------------------------------------------------------------------


def test_a_500_level_chain_answers_with_a_bounded_tree_and_a_way_down(gateway):
    ids = chain(gateway, 500)
    envelope = gateway.exec("onto.document.tree.get", {"project_id": PROJECT, "root_id": ids[0]})
    assert envelope["ok"], envelope
    levels = walk_down(envelope["result"]["tree"])
    assert [n["id"] for n in levels] == ids[:TREE_LIMIT + 1]
    bottom = levels[-1]
    assert bottom["children"] == [] and bottom["more"] == {
        "hidden": 500 - TREE_LIMIT - 1,
        "next": {"op": "onto.document.tree.get", "args": {"project_id": PROJECT, "root_id": bottom["id"]}},
    }
    assert any("deeper than 20 levels" in w for w in envelope["meta"]["warnings"])
    assert json_depth(envelope) < 64

    following = gateway.exec(bottom["more"]["next"]["op"], bottom["more"]["next"]["args"])
    assert [n["id"] for n in walk_down(following["result"]["tree"])] == ids[TREE_LIMIT:2 * TREE_LIMIT + 1]


def test_the_whole_project_tree_stays_readable_with_a_deep_chain_in_it(gateway):
    ids = chain(gateway, 500)
    envelope = gateway.exec("onto.document.tree.get", {"project_id": PROJECT})
    assert envelope["ok"], envelope
    top = next(n for n in envelope["result"]["tree"] if n["id"] == ids[0])
    assert walk_down([top])[-1]["more"]["hidden"] == 479
    assert json_depth(envelope) < 64


def test_folders_only_keeps_deep_folders_and_cuts_them_the_same_way(gateway):
    ids = chain(gateway, 60, type_key="document.folder")
    envelope = gateway.exec("onto.document.tree.get", {"project_id": PROJECT, "root_id": ids[0], "include_documents": False})
    levels = walk_down(envelope["result"]["tree"])
    assert len(levels) == TREE_LIMIT + 1
    assert levels[-1]["more"]["next"]["args"] == {"project_id": PROJECT, "root_id": levels[-1]["id"], "include_documents": False}


def test_an_asked_max_depth_marks_the_cut_without_a_warning(gateway):
    ids = chain(gateway, 5)
    envelope = gateway.exec("onto.document.tree.get", {"project_id": PROJECT, "root_id": ids[0], "max_depth": 2})
    levels = walk_down(envelope["result"]["tree"])
    assert len(levels) == 3 and levels[-1]["more"]["hidden"] == 2
    assert not any("deeper than" in w for w in envelope["meta"].get("warnings", []))


def test_a_deep_path_answers(gateway):
    ids = chain(gateway, 500)
    envelope = gateway.exec("onto.document.path.get", {"document_id": ids[-1]})
    assert envelope["ok"], envelope
    assert envelope["result"]["path"][0]["id"] == ids[0]


def test_the_store_nests_a_deep_chain_without_recursion(gateway):
    ids = chain(gateway, 3000)
    with gateway.store.read() as tx:
        assert len(walk_down(tx.document_tree(PROJECT, root_id=ids[0]))) == 3000


# -- props ------------------------------------------------------------------------------------


@pytest.mark.parametrize("levels", [MAX_VALUE_DEPTH + 1, 64, 450, 500])
def test_props_nested_too_deep_are_a_validation_error_naming_the_path(gateway, levels):
    before = gateway.store.dump()
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "Deep", "props": nested(levels)})
    assert not envelope["ok"] and envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    [error] = envelope["error"]["details"]["field_errors"]
    assert error["field"].startswith("args.props.a.a") and error["code"] == "too_deep"
    assert "Traceback" not in json.dumps(envelope)
    assert gateway.store.dump() == before  # an invalid call writes nothing


def test_props_at_the_limit_are_stored_and_read_back_whole(gateway):
    props = nested(MAX_VALUE_DEPTH)
    created = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "As deep as allowed", "props": props})
    assert created["ok"], created
    read = gateway.exec("onto.task.get", {"task_id": created["result"]["task"]["id"]})
    assert read["result"]["task"]["props"] == props


@pytest.mark.parametrize(("op", "args", "field"), [
    ("onto.project.create", {"project": {"name": "Deep", "props": nested(40)}, "entities": [], "relationships": []}, "args.project.props.a"),
    ("onto.project.create", {"project": {"name": "Deep"}, "relationships": [],
                             "entities": [{"temp_id": "g", "kind": "goal", "name": "G", "props": nested(40)}]}, "args.entities[0].props.a"),
    ("onto.edge.link", {"src_kind": "project", "src_id": PROJECT, "dst_kind": "task", "dst_id": "20000000-0000-4000-8000-000000000001",
                        "rel": "relates_to", "props": nested(40)}, "args.props.a"),
    ("onto.goal.update", {"goal_id": "30000000-0000-4000-8000-000000000001", "props": nested(40)}, "args.props.a"),
])
def test_every_write_of_a_json_value_bounds_its_depth(gateway, op, args, field):
    envelope = gateway.exec(op, args)
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    assert envelope["error"]["details"]["field_errors"][0]["field"].startswith(field)


def _store_too_deep(path, task_id: str, levels: int) -> None:
    """Write props the way an older opgate could: straight into the row."""
    with connect_store(path) as store, store.write() as tx:
        tx._run("UPDATE tasks SET props = ? WHERE id = ?", (json.dumps({"legacy": nested(levels), "kept": 1}), task_id))


@pytest.mark.parametrize("levels", [40, 450])
def test_props_stored_too_deep_are_read_back_cut(tmp_path, levels, new_workspace):
    path = new_workspace(tmp_path)
    gateway = Gateway(db_path=path, allow_write=True)
    try:
        task = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "Old and deep"})["result"]["task"]["id"]
        _store_too_deep(path, task, levels)
        read = gateway.exec("onto.task.get", {"task_id": task})
        assert read["ok"], read
        props = read["result"]["task"]["props"]
        assert props["kept"] == 1 and json_depth(props) == MAX_VALUE_DEPTH
        assert CUT_MARKER in json.dumps(props)
        listed = gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 100})
        assert listed["ok"], listed

        # Writing the cut copy back would lose the cut levels without a word: refused.
        kept = gateway.exec("onto.task.update", {"task_id": task, "props": {"kept": 2}})
        assert kept["error"]["code"] == "VALIDATION_ERROR" and "legacy" in kept["error"]["message"]
        # Other fields still change, and dropping the deep key works.
        assert gateway.exec("onto.task.update", {"task_id": task, "title": "Renamed"})["ok"]
        dropped = gateway.exec("onto.task.update", {"task_id": task, "props": {"legacy": None, "kept": 2}})
        assert dropped["ok"] and dropped["result"]["task"]["props"] == {"kept": 2}
    finally:
        gateway.close()
