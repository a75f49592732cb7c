"""The three shared real catalogues load, get stable unique op names, and can be browsed."""

import json

from opgate.core import Gateway, load_catalog
from opgate.core.registry import build_registry

EXPECTED_TOOLS = {"github": 117, "loom": 62, "twilio": 1447}


def test_every_tool_gets_a_unique_op(real_catalog):
    name, path = real_catalog
    registry = build_registry(load_catalog(path))
    assert len(registry) == EXPECTED_TOOLS[name]
    assert len(set(registry.ops)) == len(registry)
    assert not [p for p in registry.problems if p.severity == "error"]


def test_names_are_stable_across_builds(real_catalog):
    _, path = real_catalog
    first = build_registry(load_catalog(path))
    second = build_registry(load_catalog(path))
    assert first.ops == second.ops
    assert first.version == second.version


def test_every_op_and_every_group_has_help(real_catalog, closed_after):
    _, path = real_catalog
    gateway = closed_after(Gateway.from_catalogs([path]))
    tree = gateway.help_tree
    for node_path in tree.paths:
        payload = gateway.help(node_path)
        assert payload["ok"], (node_path, payload)
        json.dumps(payload)
    for op in gateway.registry.ops:
        assert gateway.help(op)["type"] in ("op", "group")


def test_mcp_annotations_decide_read_and_write(github_catalog):
    registry = build_registry(load_catalog(github_catalog))
    assert registry.get("mcp.github.issue.list").kind == "read"
    assert registry.get("mcp.github.issue.create" if "mcp.github.issue.create" in registry else "mcp.github.issue.write").kind == "write"


def test_http_method_decides_read_and_write(twilio_catalog):
    registry = build_registry(load_catalog(twilio_catalog))
    assert registry.get("twilio.api_v2010.call.fetch").kind == "read"
    assert registry.get("twilio.api_v2010.call.create").kind == "write"
    assert registry.get("twilio.api_v2010.call.delete").destructive


def test_dangling_refs_are_repaired_and_reported(twilio_catalog):
    registry = build_registry(load_catalog(twilio_catalog))
    dangling = [p for p in registry.problems if "points nowhere" in p.message]
    assert dangling, "the Twilio catalogue has references to components that were not flattened"
    record = registry.resolve(dangling[0].tool)
    assert "$ref" not in json.dumps(record.parameters) or "#/$defs" in json.dumps(record.parameters)


def test_a_named_namespace_overrides_the_derived_one(github_catalog):
    registry = build_registry(load_catalog(f"gh={github_catalog}"))
    assert "gh.issue.list" in registry
