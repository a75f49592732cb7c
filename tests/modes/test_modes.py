"""Exposure modes, provider exports, the hybrid lane, list_tools/run_tool and the loop guard."""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.modes import LOOP_THRESHOLD, MODES, NAMESPACE_CAP, PROVIDERS, TYPED_LANE_BYTES, TYPED_LANE_CAP, ToolRouter, export, stats

GATEWAY_BUDGET = 2118


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    yield gateway
    gateway.close()


def test_gateway_mode_is_small_and_help_carries_the_map(gateway):
    tools = export(gateway, "openai", "gateway")
    assert [t["function"]["name"] for t in tools] == ["help", "exec", "batch", "search"]
    figures = stats(tools)
    assert figures["bytes"] < GATEWAY_BUDGET
    assert figures["bytes"] < 0.04 * stats(export(gateway, "openai", "full"))["bytes"]
    root = {g["name"]: g for g in gateway.help("")["groups"]}
    assert root["onto"]["ops"] == 63 and "task" in root["onto"]["holds"] and root["util"]["ops"] == 5


def test_gateway_descriptions_carry_the_discovery_heuristics(gateway):
    described = {t["function"]["name"]: t["function"]["description"] for t in export(gateway, "openai", "gateway")}
    assert "directly" in described["exec"] and "no help first" in described["exec"]
    assert "unsure" in described["help"] and "validation error" in described["help"]
    assert "more than one step" in described["batch"]


@pytest.mark.parametrize("provider", [p for p in PROVIDERS])
def test_every_provider_exports_every_op_in_full_mode(gateway, provider):
    tools = export(gateway, provider, "full")
    assert stats(tools)["tools"] == len(gateway.registry)
    names = json.dumps(tools)
    assert "onto__document__tree__move" in names


def test_gemini_gets_the_json_schema_unchanged_in_the_sdk_shape(gateway):
    tools = export(gateway, "gemini", "full")
    assert len(tools) == 1 and set(tools[0]) == {"function_declarations"}
    declarations = {d["name"]: d for d in tools[0]["function_declarations"]}
    assert declarations["onto__task__create"]["parameters_json_schema"] == gateway.registry.get("onto.task.create").parameters


def test_deferred_mode_uses_the_providers_own_search(gateway):
    anthropic = export(gateway, "anthropic", "deferred")
    assert anthropic[0]["type"].startswith("tool_search_tool_bm25")
    assert all(t.get("defer_loading") for t in anthropic[1:])
    openai = export(gateway, "openai-responses", "deferred")
    assert openai[0] == {"type": "tool_search"}
    namespaces = openai[1:]
    assert all(n["type"] == "namespace" and all(f["defer_loading"] for f in n["tools"]) for n in namespaces)
    assert sum(len(n["tools"]) for n in namespaces) == len(gateway.registry)
    assert all(1 < len(n["tools"]) <= NAMESPACE_CAP for n in namespaces)
    with pytest.raises(ValueError):
        export(gateway, "gemini", "deferred")


def test_hybrid_lane_is_capped_and_keeps_the_generic_pair(twilio_catalog, closed_after):
    gateway = closed_after(Gateway.from_catalogs([twilio_catalog]))
    tools = export(gateway, "openai", "hybrid", router=ToolRouter(gateway), turn="list calls and recordings and messages and phone numbers")
    names = [t["function"]["name"] for t in tools]
    assert names[-2:] == ["list_tools", "run_tool"]
    typed = tools[:-2]
    assert len(typed) <= TYPED_LANE_CAP
    assert len(json.dumps([t["function"] for t in typed], separators=(",", ":"))) <= TYPED_LANE_BYTES + 200 * len(typed)


def test_an_inspected_op_is_promoted_into_the_next_lane(gateway):
    router = ToolRouter(gateway)
    before = [t["function"]["name"] for t in export(gateway, "openai", "hybrid", router=router, turn="hello")]
    assert "onto__risk__update" not in before
    router.call("help", {"path": "onto.risk.update"})
    after = [t["function"]["name"] for t in export(gateway, "openai", "hybrid", router=router, turn="hello")]
    assert after[0] == "onto__risk__update"


def test_typed_tools_and_run_tool_go_through_exec(gateway):
    router = ToolRouter(gateway)
    typed = router.call("onto__project__list", {})
    assert typed["ok"] and typed["op"] == "onto.project.list"
    generic = router.call("run_tool", {"name": "onto.project.list", "arguments": {"limit": 1}})
    assert generic["ok"] and len(generic["result"]["projects"]) == 1
    denied = router.call("run_tool", {"name": "onto.task.create", "arguments": {"project_id": "10000000-0000-4000-8000-000000000001", "title": "x"}})
    assert denied["error"]["code"] == "PERMISSION_DENIED"
    preview = router.call("run_tool", {"name": "onto.task.create", "arguments": {"project_id": "10000000-0000-4000-8000-000000000001", "title": "x"}, "dry_run": True})
    assert preview["ok"] and preview["meta"]["dry_run"]


def test_run_tool_refuses_itself(gateway):
    answer = ToolRouter(gateway).call("run_tool", {"name": "run_tool", "arguments": {"name": "onto.project.list"}})
    assert answer["error"]["code"] == "VALIDATION_ERROR" and "cannot run run_tool" in answer["error"]["message"]


def test_list_tools_filters_and_bounds(gateway):
    router = ToolRouter(gateway)
    everything = router.call("list_tools", {"limit": 50})
    assert len(everything["tools"]) == 50 and everything["next_offset"] == 50
    assert set(everything["tools"][0]) == {"name", "summary", "required_args", "mutates", "auth_required"}
    writes = router.call("list_tools", {"mutating_only": True, "category": "onto.task", "limit": 50})
    assert writes["tools"] and all(t["mutates"] and t["name"].startswith("onto.task.") for t in writes["tools"])
    assert router.call("list_tools", {"limit": 500})["error"]["code"] == "VALIDATION_ERROR"
    assert router.call("list_tools", {"bogus": 1})["error"]["code"] == "VALIDATION_ERROR"


def test_list_tools_is_byte_bounded(twilio_catalog, closed_after):
    gateway = closed_after(Gateway.from_catalogs([twilio_catalog]))
    answer = ToolRouter(gateway).call("list_tools", {"limit": 50})
    assert len(json.dumps(answer["tools"])) <= 8 * 1024 + 512


def test_gateway_tools_reject_unknown_arguments(gateway):
    answer = ToolRouter(gateway).call("exec", {"op": "onto.project.list", "argz": {}})
    assert answer["error"]["code"] == "VALIDATION_ERROR" and "argz" in answer["error"]["message"]


def test_help_loop_guard(gateway):
    router = ToolRouter(gateway)
    answers = [router.call("help", {"path": "onto.document.tree.get"}) for _ in range(LOOP_THRESHOLD)]
    assert "loop_guard" not in answers[0]
    assert "exec" in answers[-1]["loop_guard"]


def test_read_loop_guard(gateway):
    router = ToolRouter(gateway)
    answers = [router.call("exec", {"op": "onto.document.tree.get", "args": {"project_id": "10000000-0000-4000-8000-000000000001"}}) for _ in range(LOOP_THRESHOLD)]
    assert not any("times in a row" in w for w in answers[0]["meta"]["warnings"])
    assert any("times in a row" in w for w in answers[-1]["meta"]["warnings"])


def test_unknown_mode_and_tool(gateway):
    with pytest.raises(ValueError):
        export(gateway, "openai", "everything")
    assert ToolRouter(gateway).call("nope", {})["error"]["code"] == "NOT_FOUND"
    assert set(MODES) == {"gateway", "full", "hybrid", "deferred"}


def test_the_exec_tool_takes_args_sent_as_a_json_string_as_exec_does(gateway):
    """Models often send args as JSON text. Gateway.exec parses it with a warning (docs/exec.md); the exec tool an
    agent calls refused it before exec saw it ('"{\\"limit\\": 1}" is text; expected an object')."""
    router = ToolRouter(gateway, mode="gateway")
    answer = router.call("exec", {"op": "onto.task.list", "args": '{"limit": 1}'})
    assert answer["ok"], answer
    assert len(answer["result"]["tasks"]) == 1
    assert any("JSON string" in w for w in answer["meta"]["warnings"])
    broken = router.call("exec", {"op": "onto.task.list", "args": '{"limit": 1'})
    assert broken["error"]["code"] == "VALIDATION_ERROR" and broken["op"] == "onto.task.list", broken
    assert broken["error"]["help_path"] == "onto.task.list"
    batch = router.call("batch", {"steps": [{"tool": "exec", "args": {"op": "onto.task.list", "args": '{"limit": 1}'}}]})
    assert batch[0]["ok"], batch


def test_run_tool_takes_arguments_sent_as_a_json_string_as_exec_does(gateway):
    router = ToolRouter(gateway, mode="hybrid")
    answer = router.call("run_tool", {"name": "onto.task.list", "arguments": '{"limit": 1}'})
    assert answer["ok"] and len(answer["result"]["tasks"]) == 1, answer
    assert any("JSON string" in w for w in answer["meta"]["warnings"])


def test_call_tool_takes_arguments_sent_as_a_json_string_as_exec_does(gateway):
    router = ToolRouter(gateway, mode="protocol")
    answer = router.call("call_tool", {"tool_id": "onto.task.list", "arguments": '{"limit": 1}'})
    assert answer["ok"] and len(answer["result"]["tasks"]) == 1, answer
    assert any("JSON string" in w for w in answer["meta"]["warnings"])


def test_arguments_with_names_that_are_not_text_are_an_answer_not_a_type_error(gateway):
    """A Python host can hand the router a dict with a non-string key; counting the malformed call for its retry
    hint sorted the keys and raised TypeError out of call()."""
    router = ToolRouter(gateway, mode="gateway")
    for tool, arguments in [("exec", {"op": "onto.task.list", 1: 2}), ("exec", {"op": "onto.task.list", "args": {1: 2, "a": 3}}), ("help", {"path": "onto", 7: True})]:
        for _ in range(3):
            answer = router.call(tool, arguments)
            assert answer["ok"] is False and answer["error"]["code"] == "VALIDATION_ERROR", answer
