"""``confirm`` in opgate.toml: a person's yes before an upstream's tools run, against the real memory server.

MCP upstream ops could not require confirmation at all: a model with writes
allowed could delete a whole knowledge graph. ``confirm = ["delete_entities"]``
names tools; ``confirm = "destructive"`` (or ``"writes"``) names them by kind.
"""

from __future__ import annotations

import json

import mcp_types as types
import pytest
from mcp import Client

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.config import ConfigError, load_config
from test_upstream_serve import serve

ADA = {"name": "Ada", "entityType": "person", "observations": ["wrote the first program"]}


def _toml(tmp_path, modules, confirm: str) -> object:
    return us.memory_toml(modules, tmp_path, f"confirm = {confirm}")


def _gateway(tmp_path, toml, approver=None) -> Gateway:
    return us.toml_gateway(tmp_path, toml, allow_write=True, approver=approver)


def _names(gateway: Gateway) -> list[str]:
    return [e["name"] for e in gateway.exec("read_graph", {})["result"]["entities"]]


def test_a_named_tool_asks_first_and_a_no_sends_nothing(tmp_path, modules):
    answers: list[bool] = []
    asked: list = []

    def approver(request):
        asked.append(request)
        return answers.pop(0)

    gateway = _gateway(tmp_path, _toml(tmp_path, modules, '["delete_entities"]'), approver)
    try:
        assert gateway.exec("create_entities", {"entities": [ADA]})["ok"]
        assert asked == [], "a tool that confirm does not name asked"
        help_ = gateway.help("memory.entity.delete")
        assert "confirm" in json.dumps(help_).lower(), help_
        answers.append(False)
        refused = gateway.exec("delete_entities", {"entityNames": ["Ada"]})
        assert refused["error"]["code"] == "PERMISSION_DENIED" and refused["error"]["details"].get("cancelled") is True, refused
        assert _names(gateway) == ["Ada"], "a refused delete reached the server"
        (request,) = asked
        assert request.op == "memory.entity.delete"
        assert request.preview["meta"]["preview"]["request"]["params"] == {"name": "delete_entities", "arguments": {"entityNames": ["Ada"]}}
        answers.append(True)
        assert gateway.exec("delete_entities", {"entityNames": ["Ada"]})["ok"]
        assert _names(gateway) == []
    finally:
        gateway.close()


def test_without_anyone_to_ask_the_call_is_refused(tmp_path, modules):
    gateway = _gateway(tmp_path, _toml(tmp_path, modules, '"destructive"'))
    try:
        assert gateway.exec("create_entities", {"entities": [ADA]})["ok"], "a tool that does not destroy asked"
        for op, args in (("delete_entities", {"entityNames": ["Ada"]}), ("delete_observations", {"deletions": [{"entityName": "Ada", "observations": ["wrote the first program"]}]})):
            refused = gateway.exec(op, args)
            assert refused["error"]["code"] == "PERMISSION_DENIED" and refused["error"]["details"]["requires_confirmation"] is True, refused
        graph = gateway.exec("read_graph", {})["result"]
        assert graph["entities"][0]["observations"] == ["wrote the first program"]
        assert not gateway.registry.get("memory.graph.read").metadata.requires_confirmation
        assert gateway.upstreams.status()[0]["confirm"] == "destructive"
    finally:
        gateway.close()


@pytest.mark.parametrize(("value", "said"), [("3", "upstreams.memory.confirm"), ('"everything"', "upstreams.memory.confirm"), ('["", "x"]', "upstreams.memory.confirm")])
def test_a_bad_confirm_is_a_config_error_naming_its_key(tmp_path, modules, value, said):
    with pytest.raises(ConfigError) as raised:
        load_config(_toml(tmp_path, modules, value))
    assert said in str(raised.value)


def test_a_misspelt_tool_name_is_reported(tmp_path, modules):
    gateway = _gateway(tmp_path, _toml(tmp_path, modules, '["delete_entitys"]'))
    try:
        gateway.help("memory")
        problems = [p.message for p in gateway.registry.problems]
        assert any("'delete_entitys'" in p and "does not offer" in p for p in problems), problems
    finally:
        gateway.close()


def test_an_agent_through_serve_is_asked_with_elicitation(tmp_path, modules):
    toml = _toml(tmp_path, modules, '["delete_entities"]')
    replies: list[str] = []
    messages: list[str] = []

    async def elicit(context, params):
        messages.append(params.message)
        return types.ElicitResult(action="accept", content={"confirm": replies.pop(0) == "yes"})

    async def run() -> None:
        params = serve(toml, tmp_path / "w.db", "--allow-write")
        params.args[params.args.index("--mcp-servers"):params.args.index("--mcp-servers") + 2] = ["--config", str(toml)]
        async with Client(params, mode="legacy", read_timeout_seconds=60, elicitation_callback=elicit) as client:
            async def exec_(op, args):
                result = await client.call_tool("exec", {"op": op, "args": args})
                return result.structured_content if result.structured_content is not None else json.loads(result.content[0].text)

            assert (await exec_("create_entities", {"entities": [ADA]}))["ok"]
            replies.append("no")
            refused = await exec_("delete_entities", {"entityNames": ["Ada"]})
            assert refused["error"]["code"] == "PERMISSION_DENIED", refused
            assert [e["name"] for e in (await exec_("read_graph", {}))["result"]["entities"]] == ["Ada"]
            assert "delete_entities" in messages[0]
            replies.append("yes")
            assert (await exec_("delete_entities", {"entityNames": ["Ada"]}))["ok"]
            assert (await exec_("read_graph", {}))["result"]["entities"] == []

    import anyio

    anyio.run(run)


def test_confirm_in_an_mcp_servers_file_is_checked_too(tmp_path, modules):
    from opgate.core.executors.mcp import UpstreamConfigError
    from opgate.core.executors.mcp._config import load_upstream_configs

    good = us.write_config(tmp_path / "good.json", {"memory": us.memory(modules, tmp_path, confirm="writes")})
    (config,) = load_upstream_configs([good])
    assert config.needs_confirmation("create_entities", destructive=False, writes=True)
    assert not config.needs_confirmation("read_graph", destructive=False, writes=False)
    bad = us.write_config(tmp_path / "bad.json", {"memory": us.memory(modules, tmp_path, confirm={"delete_entities": True})})
    with pytest.raises(UpstreamConfigError) as raised:
        load_upstream_configs([bad])
    assert "mcpServers.memory.confirm" in str(raised.value)


def test_opgate_toml_takes_trust_annotations_as_a_servers_file_does(tmp_path, modules):
    toml = _toml(tmp_path, modules, '[]')
    toml.write_text(toml.read_text(encoding="utf-8") + "trust_annotations = false\n", encoding="utf-8")
    gateway = _gateway(tmp_path, toml)
    try:
        gateway.help("memory")
        assert gateway.registry.get("memory.graph.read").kind == "write", "the hints of an untrusted server were believed"
    finally:
        gateway.close()
