"""The lazily computed help tree against a plain one built op by op (counts, children, records, order)."""

from __future__ import annotations

from pathlib import Path

from collections import defaultdict

import pytest

from opgate.core import Gateway, build_registry, load_catalog
from opgate.core.help import HelpTree

# Read in place from ../shared/data (as tests/conftest.py finds it).
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
CATALOGS = SHARED_DATA / "catalogs"
REAL_CATALOGS = {name: CATALOGS / f for name, f in (("github", "github_mcp_tools_list.json"), ("loom", "loom_tools.json"), ("twilio", "twilio_openapi_tools.json"))}


def _reference(registry) -> tuple[dict, dict]:
    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    children: dict[str, set[str]] = defaultdict(set)
    for record in registry:
        parts = record.op.split(".")
        for end in range(0, len(parts) + 1):
            path = ".".join(parts[:end])
            counts[path][record.kind != "read"] += 1
            if end < len(parts):
                children[path].add(parts[end])
    return counts, children


@pytest.mark.parametrize("name", ["builtin", *sorted(REAL_CATALOGS)])
def test_every_node_matches_a_tree_built_op_by_op(name):
    registry = Gateway(call_log=False).registry if name == "builtin" else build_registry(load_catalog(REAL_CATALOGS[name]))
    counts, children = _reference(registry)
    for tree in (HelpTree(registry), HelpTree.from_ops(registry.ops, registry.kinds(), registry.get)):
        assert set(tree.paths) == set(counts) - {""}
        for path, (reads, writes) in counts.items():
            node = tree.node(path)
            assert node is not None, path
            assert (node.reads, node.writes, node.total) == (reads, writes, reads + writes), path
            assert list(node.children) == sorted(children[path]), path
            assert node.record is registry.get(path) if path in registry else node.record is None
            assert [r.op for r in node.ops()] == sorted(r.op for r in registry if r.op == path or r.op.startswith(path + ".") or not path)
        assert tree.node("no.such.path") is None and tree.node(registry.ops[0] + "x") is None


def test_a_node_that_is_an_op_and_a_group():
    ops = ["a.b", "a.b.c", "a.b_d", "a.bc.x"]
    tree = HelpTree.from_ops(ops, ["read", "write", "read", "write"], lambda op: None)
    node = tree.node("a.b")
    assert node.is_op and node.total == 2 and node.reads == 1 and list(node.children) == ["c"]
    assert list(tree.node("a").children) == ["b", "b_d", "bc"]
    assert tree.node("a").total == 4 and tree.node("a.bc").total == 1
