"""Help of a root or group is at most 4 KB: big answers come in pages that together list every entry once."""

from __future__ import annotations

from pathlib import Path

import json

import pytest

from opgate.core import Gateway, build_registry
from opgate.core.catalog import CatalogLoad, ToolDefinition
from opgate.core.help._listing import PAGE_BYTES

# Read in place from ../shared/data (as tests/conftest.py finds it).
SHARED_DATA = Path(__file__).resolve().parents[3] / "shared" / "data"
CATALOGS = SHARED_DATA / "catalogs"
REAL_CATALOGS = {name: CATALOGS / f for name, f in (("github", "github_mcp_tools_list.json"), ("loom", "loom_tools.json"), ("twilio", "twilio_openapi_tools.json"))}

SCHEMA = {"type": "object", "properties": {"sid": {"type": "string", "description": "The SID of the resource to act on."}}}


def _size(payload: dict) -> int:
    return len(json.dumps(payload, separators=(",", ":")))


@pytest.fixture(scope="module")
def wide() -> Gateway:
    """600 products of 1 to 9 ops each under one namespace, and 30 ops directly in it."""
    tools = []
    for product in range(600):
        for n in range(1 + product % 9):
            tools.append(ToolDefinition(name=f"Create Thing{n} P{product}", description=f"Creates thing {n} of product {product}.", parameters=SCHEMA, namespace="big", op_hint=f"product{product}.CreateThing{n}"))
    tools += [ToolDefinition(name=f"Frobnicate{n}", description="Frobnicates.", parameters=SCHEMA, namespace="big", op=f"big.frobnicate{n}") for n in range(30)]
    return Gateway(build_registry([CatalogLoad("wide.json", "big", tools)]), call_log=False)


def _all_pages(gateway: Gateway, path: str, **options) -> list[dict]:
    pages = [gateway.help(path, **options)]
    while pages[-1]["page"]["next_cursor"]:
        pages.append(gateway.help(path, cursor=pages[-1]["page"]["next_cursor"], **options))
    return pages


def test_a_wide_group_comes_in_pages_that_list_everything_once(wide):
    pages = _all_pages(wide, "big")
    assert len(pages) > 5
    assert all(_size(p) <= PAGE_BYTES for p in pages)
    groups = [g for p in pages for g in p["groups"]]
    ops = [line["op"] for p in pages for line in p.get("list", [])]
    node = wide.help_tree.node("big")
    assert sorted(g["name"] for g in groups) == sorted(n for n, c in node.children.items() if c.children)
    assert ops == sorted(c.path for c in node.children.values() if c.is_op)
    assert [(-g["ops"], g["name"]) for g in groups] == sorted((-g["ops"], g["name"]) for g in groups), "largest subgroups first"
    first = pages[0]["page"]
    assert (first["offset"], first["groups"], first["ops"]) == (0, 600, 30)
    assert sum(p["page"]["shown"] for p in pages) == 630
    assert all(g["ops"] == g["read"] + g["write"] for g in groups)
    assert pages[0]["ops"] == pages[-1]["ops"] == node.total


def test_the_root_and_kind_listings_are_paged_too(wide):
    for path in ("big.write", ".write"):
        pages = _all_pages(wide, path)
        assert all(_size(p) <= PAGE_BYTES for p in pages)
        assert [line["op"] for p in pages for line in p["list"]] == sorted(r.op for r in wide.registry if r.kind == "write")


def test_schemas_come_with_the_ops_of_their_page():
    gateway = Gateway.from_catalogs([f"twilio={REAL_CATALOGS['twilio']}"], call_log=False)
    pages = _all_pages(gateway, "twilio.api_v2010.application", include_schemas=True)
    for page in pages:
        assert list(page["schemas"]) == [line["op"] for line in page["list"]]
        assert _size(page) <= PAGE_BYTES or len(page["list"]) == 1
    assert sum(len(p["list"]) for p in pages) == pages[0]["ops"]


def test_small_answers_keep_their_shape():
    gateway = Gateway(call_log=False)
    root = gateway.help("")
    assert "page" not in root and [g["name"] for g in root["groups"]] == sorted(g["name"] for g in root["groups"])
    task = gateway.help("onto.task")
    assert "page" not in task and task["type"] == "group" and "list" in task
    onto = gateway.help("onto")
    assert "page" not in onto and [g["name"] for g in onto["groups"]] == sorted(g["name"] for g in onto["groups"])


def test_cursors_are_checked(wide):
    cursor = wide.help("big")["page"]["next_cursor"]
    for path, bad in (("big", "not-a-cursor"), ("big", cursor[:-2]), ("big.write", cursor)):
        answer = wide.help(path, cursor=bad)
        assert answer["ok"] is False and answer["error"]["code"] == "VALIDATION_ERROR", (path, bad)
    assert wide.help("big", cursor=123)["error"]["code"] == "VALIDATION_ERROR"


def test_a_cursor_goes_through_batch_and_the_gateway_tool(wide):
    from opgate.core.modes import ToolRouter

    cursor = wide.help("big")["page"]["next_cursor"]
    [step] = wide.batch([{"tool": "help", "args": {"path": "big", "cursor": cursor}}])
    assert step["ok"] and step["result"]["page"]["offset"] > 0
    answer = ToolRouter(wide).call("help", {"path": "big", "cursor": cursor})
    assert answer == wide.help("big", cursor=cursor)
