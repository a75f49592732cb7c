"""Task documents, the document tree and paths, the project graph, edges and links."""

from __future__ import annotations

import json

import pytest

from opgate.core._builtin import fixtures_dir
from opgate.core.exec._errors import NotFoundError
from opgate.core.store import NotFound, open_store

DEMO = json.loads((fixtures_dir() / "demo_workspace.json").read_text(encoding="utf-8"))
RELAY, FAIR = "10000000-0000-4000-8000-000000000001", "10000000-0000-4000-8000-000000000003"
ENGINEERING, API_SPEC, RUNBOOKS, DEPLOY_RUNBOOK = (f"50000000-0000-4000-8000-00000000000{n}" for n in (1, 2, 4, 5))
API_TASK, REFERENCE_TASK, WEBHOOK_TASK = (f"20000000-0000-4000-8000-00000000000{n}" for n in (1, 2, 3))
SYNC_RISK = "80000000-0000-4000-8000-000000000001"


def in_project(project_id: str) -> set[str]:
    ids = {project_id}
    for section, rows in DEMO.items():
        if isinstance(rows, list) and section not in ("edges", "task_documents", "templates"):
            ids |= {r["id"] for r in rows if r.get("project_id") == project_id}
    return ids


def walk(nodes):
    for node in nodes:
        yield node
        yield from walk(node["children"])


# -- task documents --------------------------------------------------------------

def test_task_documents_carry_the_role_and_filter_by_it(read):
    everything = read("onto.task.docs.list", task_id=API_TASK)
    links = {(l["document_id"], l["role"]) for l in DEMO["task_documents"] if l["task_id"] == API_TASK}
    assert everything["task_id"] == API_TASK
    assert {(d["id"], d["role"]) for d in everything["documents"]} == links
    inputs = read("onto.task.docs.list", task_id=API_TASK, role="input")["documents"]
    assert [(d["title"], d["role"]) for d in inputs] == [("API Spec", "input")]
    assert read("onto.task.docs.list", task_id=API_TASK, role="output")["documents"] == []
    with pytest.raises(NotFound):
        read("onto.task.docs.list", task_id="20000000-0000-4000-8000-999999999999")


# -- the tree and paths ----------------------------------------------------------

def test_tree_nests_documents_by_position(read):
    result = read("onto.document.tree.get", project_id=RELAY)
    nodes = list(walk(result["tree"]))
    assert {n["id"] for n in nodes} == {d["id"] for d in DEMO["documents"] if d["project_id"] == RELAY}
    assert all(set(n) == {"id", "title", "type_key", "children"} for n in nodes)
    engineering = next(n for n in result["tree"] if n["id"] == ENGINEERING)
    positions = {d["id"]: d["position"] for d in DEMO["documents"]}
    child_positions = [positions[c["id"]] for c in engineering["children"]]
    assert child_positions == sorted(child_positions)
    assert RUNBOOKS in {c["id"] for c in engineering["children"]}


def test_folders_only_keeps_the_folder_structure(read):
    result = read("onto.document.tree.get", project_id=RELAY, include_documents=False)
    nodes = list(walk(result["tree"]))
    assert nodes and {n["type_key"] for n in nodes} == {"document.folder"}
    engineering = next(n for n in result["tree"] if n["id"] == ENGINEERING)
    assert [c["title"] for c in engineering["children"]] == ["Runbooks"]


def test_root_id_and_max_depth_cut_the_tree(read):
    subtree = read("onto.document.tree.get", project_id=RELAY, root_id=ENGINEERING)["tree"]
    assert [n["id"] for n in subtree] == [ENGINEERING]
    shallow = read("onto.document.tree.get", project_id=RELAY, root_id=ENGINEERING, max_depth=1)["tree"]
    runbooks = next(c for c in shallow[0]["children"] if c["id"] == RUNBOOKS)
    assert runbooks["children"] == []
    deep = next(c for c in subtree[0]["children"] if c["id"] == RUNBOOKS)
    assert DEPLOY_RUNBOOK in {c["id"] for c in deep["children"]}


def test_tree_of_unknown_project_or_foreign_root_is_not_found(read):
    with pytest.raises(NotFound):
        read("onto.document.tree.get", project_id="10000000-0000-4000-8000-000000000099")
    with pytest.raises(NotFound):
        read("onto.document.tree.get", project_id=FAIR, root_id=ENGINEERING)


def test_folders_under_a_plain_document_move_up_in_the_folders_only_view(tmp_path, read_runner, new_workspace):
    store = open_store(new_workspace(tmp_path), demo=False)
    with store.write() as tx:
        project = tx.insert("project", {"name": "Odd tree"})
        note = tx.insert("document", {"project_id": project["id"], "title": "Note"})
        tx.insert("document", {"project_id": project["id"], "title": "Inner", "type_key": "document.folder",
                               "parent_id": note["id"]})
    tree = read_runner(store)("onto.document.tree.get", project_id=project["id"], include_documents=False)["tree"]
    store.close()
    assert [(n["title"], n["children"]) for n in tree] == [("Inner", [])]


def test_path_goes_from_the_root_down(read):
    result = read("onto.document.path.get", document_id=DEPLOY_RUNBOOK)
    assert [step["id"] for step in result["path"]] == [ENGINEERING, RUNBOOKS, DEPLOY_RUNBOOK]
    assert result["path_text"] == "Engineering / Runbooks / Deploy Runbook"
    assert read("onto.document.path.get", document_id=ENGINEERING)["path_text"] == "Engineering"
    with pytest.raises(NotFound):
        read("onto.document.path.get", document_id="50000000-0000-4000-8000-999999999999")


# -- the project graph -------------------------------------------------------------

def test_graph_has_every_entity_edge_and_containment_link(read):
    result = read("onto.project.graph.get", project_id=RELAY)
    members = in_project(RELAY)
    assert {n["id"] for n in result["nodes"]} == members
    assert all(set(n) == {"kind", "id", "name", "state"} for n in result["nodes"])
    assert {e["id"] for e in result["edges"]} == {e["id"] for e in DEMO["edges"] if e["src_id"] in members}
    plan_links = {(t["id"], t["plan_id"]) for t in DEMO["tasks"] if t["project_id"] == RELAY and t.get("plan_id")}
    assert plan_links and plan_links <= {(c["id"], c["parent_id"]) for c in result["containment"] if c["field"] == "plan_id"}
    assert {"parent_id"} <= {c["field"] for c in result["containment"]}
    assert result["project"]["name"] == "Relay 2.0 Launch"


def test_graph_include_keeps_only_some_kinds(read):
    result = read("onto.project.graph.get", project_id=FAIR, include=["task", "goal", "milestone"])
    assert {n["kind"] for n in result["nodes"]} == {"project", "task", "goal", "milestone"}
    ids = {n["id"] for n in result["nodes"]}
    assert all(e["src_id"] in ids and e["dst_id"] in ids for e in result["edges"])
    assert all(c["id"] in ids and c["parent_id"] in ids for c in result["containment"])
    assert {c["field"] for c in result["containment"]} <= {"goal_id", "supporting_milestone_id"}


def test_graph_of_unknown_project_is_not_found(read):
    with pytest.raises(NotFound):
        read("onto.project.graph.get", project_id="10000000-0000-4000-8000-000000000099")


# -- relationships and linked entities ----------------------------------------------

def test_relationships_by_direction_rel_and_limit(read):
    both = read("onto.entity.relationships.get", entity_id=REFERENCE_TASK)
    touching = {e["id"] for e in DEMO["edges"] if REFERENCE_TASK in (e["src_id"], e["dst_id"])}
    assert {e["id"] for e in both["edges"]} == touching and both["total"] == len(touching) >= 2
    assert both["entity"] == {"kind": "task", "id": REFERENCE_TASK,
                              "name": "Write the API reference from the spec", "state": "todo"}
    incoming = read("onto.entity.relationships.get", entity_id=API_SPEC, direction="incoming")["edges"]
    assert incoming and all(e["dst_id"] == API_SPEC for e in incoming)
    one = read("onto.entity.relationships.get", entity_id=REFERENCE_TASK, limit=1)
    assert len(one["edges"]) == 1 and one["has_more"] is True
    rel = both["edges"][0]["rel"]
    assert all(e["rel"] == rel for e in read("onto.entity.relationships.get", entity_id=REFERENCE_TASK, rel=rel)["edges"])


def test_linked_entities_name_the_other_end(read):
    result = read("onto.entity.links.get", entity_id=SYNC_RISK)
    edges = [e for e in DEMO["edges"] if SYNC_RISK in (e["src_id"], e["dst_id"])]
    assert len(result["linked"]) == len(edges) > 0
    for item in result["linked"]:
        edge = next(e for e in edges if e["id"] == item["edge_id"])
        outgoing = edge["src_id"] == SYNC_RISK
        assert item["direction"] == ("outgoing" if outgoing else "incoming")
        assert item["id"] == (edge["dst_id"] if outgoing else edge["src_id"])
        assert item["name"] and item["kind"] and "state" in item


def test_linked_entities_filter_by_rel_and_check_the_kind_hint(read):
    blocks = read("onto.entity.links.get", entity_id=WEBHOOK_TASK, entity_kind="task", rel="blocks")["linked"]
    assert blocks and all(i["rel"] == "blocks" and i["direction"] == "outgoing" for i in blocks)
    with pytest.raises(NotFoundError, match="it is a task"):
        read("onto.entity.links.get", entity_id=WEBHOOK_TASK, entity_kind="risk")
    with pytest.raises(NotFound):
        read("onto.entity.links.get", entity_id="80000000-0000-4000-8000-999999999999")
