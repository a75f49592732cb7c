"""OpenAI Responses deferred mode: namespaces of related ops under a cap, and up-front stats as the docs describe."""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.modes import NAMESPACE_CAP, format_tools, plan_namespaces, stats, typed_tool


@pytest.fixture(scope="module")
def twilio(real_catalog_paths):
    return Gateway.from_catalogs([real_catalog_paths["twilio"]], call_log=False)


def _deferred(gateway):
    return [typed_tool(r, defer_loading=True) for r in gateway.registry]


def test_twilio_namespaces_are_few_full_and_capped(twilio):
    plan = plan_namespaces(_deferred(twilio), twilio.registry.group_summaries)
    sizes = [len(specs) for _, _, specs in plan]
    assert sum(sizes) == len(twilio.registry)
    assert max(sizes) <= NAMESPACE_CAP
    assert len(plan) < 520 / 2, "one namespace per op group gave 520"
    assert sum(1 for n in sizes if n == 1) <= 3, "one namespace per op group gave 167 singletons"
    names = [name for name, _, _ in plan]
    assert len(set(names)) == len(names) and all(len(n) <= 64 for n in names)


def test_a_namespace_says_what_it_holds(twilio):
    plan = plan_namespaces(_deferred(twilio), twilio.registry.group_summaries)
    name, description, specs = next(p for p in plan if any(s.op == "twilio.api_v2010.call.create" for s in p[2]))
    assert name.startswith("twilio_api_v2010_")
    assert "api_v2010.call: " in description and "create" in description
    for spec in specs:
        group, _, action = spec.op.rpartition(".")
        assert group.removeprefix("twilio.") in description and action in description


def test_a_group_that_fits_stays_whole(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    try:
        plan = {name: [s.op for s in specs] for name, _, specs in plan_namespaces(_deferred(gateway), gateway.registry.group_summaries)}
    finally:
        gateway.close()
    assert sorted(plan["util"]) == sorted(op for op in gateway.registry.ops if op.startswith("util."))
    assert any(all(op.startswith("onto.task.") for op in ops) and len(ops) >= 6 for ops in plan.values())


def test_upfront_counts_only_what_openai_shows_before_a_search(twilio):
    tools = format_tools(_deferred(twilio), "openai-responses", "deferred").tools
    figures = stats(tools)
    assert figures["namespaces"] == len(tools) - 1 and figures["tools"] == len(twilio.registry) + 1
    shown = [{"type": "tool_search"}, *({"name": t["name"], "description": t["description"]} for t in tools[1:])]
    assert figures["upfront_bytes"] == len(json.dumps(shown, separators=(",", ":"), ensure_ascii=False).encode())
    assert figures["upfront_bytes"] < figures["bytes"] / 20
    anthropic = stats(format_tools(_deferred(twilio), "anthropic", "deferred").tools)
    assert anthropic["upfront_bytes"] < 200  # the search tool alone: deferred tools stay out of the prompt
