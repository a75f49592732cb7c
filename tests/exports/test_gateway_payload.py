"""The gateway payload costs the same whatever the catalogue; the map of the namespace comes from help('')."""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.modes import PROVIDERS, export, stats

GATEWAY_BUDGET = 2118  # what a production gateway's own three tools cost


def _catalogue_of_roots(folder, roots: int) -> list[str]:
    """``roots`` catalogue files, each its own namespace (root) with a few entity groups."""
    folder.mkdir()
    paths = []
    for index in range(roots):
        tools = [
            {"name": f"{entity}_{action}", "description": f"{action.title()} {entity}s of area {index}.", "parameters": {"type": "object", "properties": {"id": {"type": "string"}}}}
            for entity in ("invoice", "customer", "shipment")
            for action in ("list", "get", "create")
        ]
        path = folder / f"area{index}.json"
        path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
        paths.append(f"area{index}={path}")
    return paths


def _root_groups(gateway: Gateway) -> int:
    """Groups at the root, over every page (a root over 4 KB is paged)."""
    answer, count = gateway.help(""), 0
    while True:
        count += len(answer["groups"])
        cursor = (answer.get("page") or {}).get("next_cursor")
        if not cursor:
            return count
        answer = gateway.help("", cursor=cursor)


@pytest.mark.parametrize("provider", [p for p in PROVIDERS])
def test_the_payload_is_the_same_for_1_and_40_roots(tmp_path, provider):
    one = Gateway.from_catalogs(_catalogue_of_roots(tmp_path / "one", 1), call_log=False)
    forty = Gateway.from_catalogs(_catalogue_of_roots(tmp_path / "forty", 40), call_log=False)
    builtin = Gateway(db_path=tmp_path / "w.db")
    try:
        assert _root_groups(one) == 1 and _root_groups(forty) == 40
        sizes = {stats(export(g, provider, "gateway"))["bytes"] for g in (one, forty, builtin)}
        assert len(sizes) == 1, sizes
        if provider.startswith("openai"):
            assert sizes.pop() < GATEWAY_BUDGET
    finally:
        builtin.close()


def test_help_root_is_the_map(tmp_path):
    forty = Gateway.from_catalogs(_catalogue_of_roots(tmp_path / "forty", 40), call_log=False)
    root = forty.help("")
    assert root["ops"] == 40 * 9
    area = next(g for g in root["groups"] if g["name"] == "area1")  # on the first page: a root over 4 KB is paged
    assert area["ops"] == 9 and set(area["holds"]) == {"invoice", "customer", "shipment"}
