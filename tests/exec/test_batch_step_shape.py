"""A batch step of the wrong shape is a VALIDATION_ERROR naming the step, the key and what belongs there.

``{"exec": 1}`` answered "unknown step tool None"; ``{"tool": "exec", "op": ...}``
ran exec with no op and blamed the op. Through gw.batch, the gateway tool
(the MCP path) and ``opgate batch``, each step is checked, nothing runs on
a refused step, and the other steps still run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from opgate.core import Gateway
from opgate.core.exec._batch_steps import MAX_STEP_ROWS, step_shape_errors, step_shape_message
from opgate.core.modes import ToolRouter

PROJECT = "10000000-0000-4000-8000-000000000001"

CASES = [
    ({"exec": 1}, "/steps/0/tool", "missing_required", 'missing required key "tool"'),
    ({"help": {"path": "onto"}}, "/steps/0/help", "unknown_argument", '{"tool": "help", "args": {...}}'),
    ({"tool": 5}, "/steps/0/tool", "not_in_enum", '5 is not one of "help", "exec"'),
    ({"tool": "exec", "args": 3}, "/steps/0/args", "invalid_type", "expected an object"),
    ({"tool": "exec", "op": "onto.task.list"}, "/steps/0/op", "unknown_argument", "go inside args"),
    ("exec onto.task.list", "/steps/0", "invalid_type", "expected an object"),
]


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", call_log=False, allow_write=True)
    yield gateway
    gateway.close()


def _check(envelope, path, code, words):
    assert not envelope["ok"] and envelope["step"] == 0
    error = envelope["error"]
    assert error["code"] == "VALIDATION_ERROR" and "step 0" in error["message"] and "None" not in error["message"], error
    rows = {row["path"]: row for row in error["details"]["field_errors"]}
    assert rows[path]["code"] == code and words in rows[path]["message"] + error["message"], error


# The gateway tool reads a null as "not given" (a strict export's habit), so this one is Python's alone.
NULL_TOOL = ({"tool": None, "args": {}}, "/steps/0/tool", "not_in_enum", 'null is not one of "help", "exec"')


@pytest.mark.parametrize(("step", "path", "code", "words"), [*CASES, NULL_TOOL])
def test_gw_batch_says_what_is_wrong_with_a_step(gateway, step, path, code, words):
    _check(gateway.batch([step])[0], path, code, words)


@pytest.mark.parametrize(("step", "path", "code", "words"), CASES)
def test_the_batch_tool_says_the_same(gateway, step, path, code, words):
    answer = ToolRouter(gateway).call("batch", {"steps": [step]})
    envelope = answer[0] if isinstance(answer, list) else answer
    if envelope.get("op") == "batch":  # refused by the tool's schema before the gateway: the same path and code
        rows = {row["path"]: row for row in envelope["error"]["details"]["field_errors"]}
        assert rows[path]["code"] == code
    else:
        _check(envelope, path, code, words)


def test_a_misshapen_step_writes_nothing_and_the_others_run(gateway):
    create = {"tool": "exec", "args": {"op": "onto.task.create", "args": {"project_id": PROJECT, "title": "kept"}}}
    answers = gateway.batch([create, {"tool": "exec", "op": "onto.task.create", "args": {"project_id": PROJECT, "title": "lost"}}], on_error="continue")
    assert answers[0]["ok"] and not answers[1]["ok"]
    titles = [t["title"] for t in gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 200})["result"]["tasks"]]
    assert "kept" in titles and "lost" not in titles


def test_opgate_batch_prints_the_step_path(tmp_path):
    steps = tmp_path / "steps.json"
    steps.write_text(json.dumps([{"exec": {"op": "onto.task.list"}}]))
    env = os.environ | {"COLUMNS": "200", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "batch", str(steps)], capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "args.steps[0].tool" in done.stdout and 'missing required key "tool"' in done.stdout, done.stdout


def test_a_step_with_thousands_of_unknown_keys_gets_a_few_rows_that_count_the_rest(gateway):
    # One row per key made 100,000 rows from a 1.3 MB step, and cutting them back to the envelope's bound took 19 s of CPU.
    step = {"tool": "exec", **{f"k{i}": 1 for i in range(5_000)}}
    rows = step_shape_errors(0, step)
    assert len(rows) <= MAX_STEP_ROWS and rows[0]["path"] == "/steps/0/k0"
    assert "(and 4999 more)" in step_shape_message(0, rows)
    error = gateway.batch([step])[0]["error"]
    assert error["details"]["field_errors"][0]["path"] == "/steps/0/k0" and "(and 4999 more)" in error["message"]


def _deep(levels: int) -> list:
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


@pytest.mark.parametrize("step", [{"tool": 10**5000}, {"tool": _deep(100_000)}, {"tool": "exec", 10**5000: 1}, _deep(100_000)], ids=["huge int tool", "deep tool", "huge int key", "deep step"])
def test_a_step_holding_a_value_json_cannot_write_is_a_validation_error(gateway, step):
    # The step's error message quoted the value with json.dumps, which raised: the step answered INTERNAL, "failed unexpectedly".
    envelope = gateway.batch([step])[0]
    assert envelope["error"]["code"] == "VALIDATION_ERROR" and "step 0" in envelope["error"]["message"], envelope
    assert len(json.dumps(envelope)) < 4_500
