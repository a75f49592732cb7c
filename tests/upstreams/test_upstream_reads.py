"""``reads``: tools a person vouches only read, for servers that give no hints, against the real memory server.

MCP reads a tool without ``readOnlyHint`` as a destructive write, and many
servers give no hints at all: every list and get of theirs needed writes
turned on, and a dry-run of one sent nothing. ``reads = ["read_graph"]``
makes those tools reads, whatever the server says; the rest stay writes.
"""

from __future__ import annotations


import pytest

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.config import ConfigError, load_config
from opgate.core.executors.mcp import UpstreamConfigError
from opgate.core.executors.mcp._config import load_upstream_configs

ADA = {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}


def _toml(tmp_path, modules, reads: str) -> object:
    # Hints not believed: every tool is a destructive write, as for a server that gives none.
    return us.memory_toml(modules, tmp_path, "trust_annotations = false", f"reads = {reads}")


def _gateway(tmp_path, toml, *, allow_write: bool) -> Gateway:
    return us.toml_gateway(tmp_path, toml, allow_write=allow_write)


def test_a_named_tool_is_a_read_and_runs_without_writes(tmp_path, modules):
    toml = _toml(tmp_path, modules, '["read_graph", "search_nodes"]')
    writer = _gateway(tmp_path, toml, allow_write=True)
    try:
        assert writer.exec("create_entities", {"entities": [ADA]})["ok"]
    finally:
        writer.close()
    gateway = _gateway(tmp_path, toml, allow_write=False)
    try:
        assert gateway.registry.get("memory.graph.read").kind == "read"
        assert gateway.registry.get("memory.entity.create").kind == "write", "a tool reads does not name became a read"
        graph = gateway.exec("memory.graph.read", {})
        assert graph["ok"] and [e["name"] for e in graph["result"]["entities"]] == ["Ada"], graph
        # A dry-run of a read really runs it (it cannot change anything), where a write's only previews.
        rehearsed = gateway.exec("search_nodes", {"query": "Ada"}, dry_run=True)
        assert rehearsed["ok"] and rehearsed["meta"].get("dry_run_kind") != "preview", rehearsed
        assert [e["name"] for e in rehearsed["result"]["entities"]] == ["Ada"]
        refused = gateway.exec("create_entities", {"entities": [{**ADA, "name": "Grace"}]})
        assert refused["error"]["code"] == "PERMISSION_DENIED", refused
        assert gateway.upstreams.status()[0]["reads"] == ["read_graph", "search_nodes"]
    finally:
        gateway.close()


def test_a_misspelt_tool_name_is_reported(tmp_path, modules):
    gateway = _gateway(tmp_path, _toml(tmp_path, modules, '["read_graf"]'), allow_write=False)
    try:
        gateway.help("memory")
        problems = [p.message for p in gateway.registry.problems]
        assert any("reads names 'read_graf'" in p and "does not offer" in p for p in problems), problems
    finally:
        gateway.close()


@pytest.mark.parametrize("value", ['"read_graph"', "[1]", '[""]'])
def test_a_bad_reads_is_a_config_error_naming_its_key(tmp_path, modules, value):
    with pytest.raises(ConfigError) as raised:
        load_config(_toml(tmp_path, modules, value))
    assert "upstreams.memory.reads" in str(raised.value)


def test_reads_in_an_mcp_servers_file(tmp_path, modules):
    good = us.write_config(tmp_path / "good.json", {"memory": us.memory(modules, tmp_path, reads=["read_graph"])})
    (config,) = load_upstream_configs([good])
    assert config.reads == ("read_graph",)
    bad = us.write_config(tmp_path / "bad.json", {"memory": us.memory(modules, tmp_path, reads="read_graph")})
    with pytest.raises(UpstreamConfigError) as raised:
        load_upstream_configs([bad])
    assert "mcpServers.memory.reads" in str(raised.value)
