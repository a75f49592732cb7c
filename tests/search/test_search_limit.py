"""search's limit is a whole number from 1 to 50, refused outside with VALIDATION_ERROR naming the bound, by every front end.

It was clamped without a word (0 or -1 gave one result, 1000 gave 50), and
a page of 50 never had a next_cursor: the index was asked for 51 hits to
tell and answered at most 50.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from opgate.core import Gateway
from opgate.core.modes import ToolRouter

# Matches more than 50 ops of the built-in catalogue, so a page of 50 has a next one.
BROAD = "project document task goal risk plan list get create update delete"


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    gateway = Gateway(db_path=tmp_path_factory.mktemp("limit") / "w.db", call_log=False)
    yield gateway
    gateway.close()


@pytest.mark.parametrize("limit", [0, -1, 51, 1000, 2.5, "3", True, None])
def test_gw_search_refuses_a_limit_outside_1_to_50(gateway, limit):
    answer = gateway.search("list tasks", limit=limit)
    assert not answer["ok"] and answer["error"]["code"] == "VALIDATION_ERROR"
    assert "from 1 to 50" in answer["error"]["message"]


@pytest.mark.parametrize("limit", [1, 10, 50, 7.0])
def test_gw_search_takes_a_limit_from_1_to_50(gateway, limit):
    answer = gateway.search("list tasks", limit=limit)
    assert answer["ok"] and 1 <= len(answer["results"]) <= limit


@pytest.mark.parametrize("limit", [0, -1, 51, 1000])
def test_the_search_tool_refuses_it_naming_the_bound(gateway, limit):
    answer = ToolRouter(gateway).call("search", {"query": "list tasks", "limit": limit})
    assert not answer["ok"] and answer["error"]["code"] == "VALIDATION_ERROR"
    assert ("at least 1" if limit < 1 else "at most 50") in answer["error"]["message"]


@pytest.mark.parametrize("operation", ["search_tool_by_category", "search_nodes", "list"])
def test_the_discovery_protocol_refuses_a_limit_past_50_too(gateway, operation):
    arguments = {"query": "tasks", "limit": 51} if operation != "list" else {"limit": 51}
    answer = ToolRouter(gateway, mode="protocol").call(operation, arguments)
    assert not answer["ok"] and answer["error"]["code"] == "VALIDATION_ERROR" and "50" in answer["error"]["message"], answer


def test_a_page_of_50_says_when_another_follows(gateway):
    seen, cursor = [], None
    while True:
        page = gateway.search(BROAD, limit=10, cursor=cursor)
        seen += [r["op"] for r in page["results"]]
        cursor = page["next_cursor"]
        if not cursor:
            break
    assert len(seen) > 50
    first = gateway.search(BROAD, limit=50)
    assert [r["op"] for r in first["results"]] == seen[:50] and first["next_cursor"]
    rest = gateway.search(BROAD, limit=50, cursor=first["next_cursor"])
    assert [r["op"] for r in rest["results"]] == seen[50:]


@pytest.mark.parametrize("limit", ["0", "51"])
def test_opgate_search_refuses_it(tmp_path, limit):
    env = os.environ | {"NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "search", "--limit", limit, "list", "tasks"], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode != 0 and "Traceback" not in done.stderr
    answer = json.loads(done.stdout)
    assert answer["error"]["code"] == "VALIDATION_ERROR" and "from 1 to 50" in answer["error"]["message"]


def test_a_destructive_op_is_flagged_in_its_pointer_and_others_are_not(gateway):
    results = {r["op"]: r for r in gateway.search("delete task", limit=10)["results"]}
    assert results["onto.task.delete"]["destructive"] is True
    assert all("destructive" not in r for op, r in results.items() if not gateway.registry.get(op).destructive)
