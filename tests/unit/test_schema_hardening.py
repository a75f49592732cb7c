"""Catalogue schemas that attack the loader or the validator (issue 15, items 2, 4 and 14).

* A ``$schema`` is never fetched: a real HTTP server on 127.0.0.1 counts the
  requests loading makes (it must be 0); an unknown or unusable ``$schema``
  is a load problem for that tool, the others load, nothing crashes.
* ``pattern`` and ``patternProperties`` are matched in linear time: the
  ReDoS case took 12.6 s.
* A ``$ref`` loop that never reaches a value is a load problem, and exec
  never answers INTERNAL for it.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from opgate.core import Binding, Gateway, Registry, build_registry, load_catalog
from opgate.core._record import replace
from opgate.core.exec import Handler

PLAIN = {"type": "object", "properties": {"code": {"type": "string"}}}
EVIL = "a" * 28 + "!"


def _tool(name: str, parameters: dict) -> dict:
    return {"type": "function", "function": {"name": name, "description": f"{name} does a thing.", "parameters": parameters}}


def _catalog(tmp_path: Path, *tools: dict) -> Path:
    path = tmp_path / "schema.json"
    path.write_text(json.dumps(list(tools)), encoding="utf-8")
    return path


def _registry(tmp_path: Path, *tools: dict) -> Registry:
    return build_registry(load_catalog(_catalog(tmp_path, *tools)))


_opened: list[Gateway] = []


@pytest.fixture(autouse=True)
def _close_gateways():
    yield
    while _opened:
        _opened.pop().close()


def _gateway(registry: Registry, tmp_path: Path) -> Gateway:
    """The catalogue's ops bound to an echo handler on the store executor, so validation is what is tested; closed after the test."""
    bound = Registry([replace(record, binding=Binding("store")) for record in registry], registry.problems)
    handlers = {record.op: Handler(lambda ctx, args: {"echo": args}, external=True) for record in bound}
    gateway = Gateway(bound, db_path=tmp_path / "w.db", handlers=handlers)
    _opened.append(gateway)
    return gateway


class CountingServer:
    """A real HTTP server on 127.0.0.1 that counts every request and answers a valid metaschema (or never answers)."""

    def __init__(self, *, hang: bool = False):
        self.requests: list[str] = []
        outer = self

        class Answer(BaseHTTPRequestHandler):
            def do_GET(self):  # noqa: N802 - the http.server name
                outer.requests.append(self.path)
                if hang:
                    time.sleep(5)
                body = json.dumps({"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object"}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Answer)
        self.server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def meta_server():
    server = CountingServer()
    yield server
    server.close()


@pytest.fixture
def silent_server():
    server = CountingServer(hang=True)
    yield server
    server.close()


# -- $schema -------------------------------------------------------------------


def test_loading_never_fetches_a_schema_url(tmp_path, meta_server):
    tools = [_tool(f"get_remote_{n}", {**PLAIN, "$schema": f"{meta_server.url}/meta{n}.json"}) for n in range(3)]
    nested = {**PLAIN, "properties": {"code": {"$id": f"{meta_server.url}/code", "$schema": f"{meta_server.url}/nested.json", "type": "string"}}}
    registry = _registry(tmp_path, *tools, _tool("get_nested", nested), _tool("get_plain", PLAIN))
    assert meta_server.requests == [], "loading a catalogue made requests (it was 2 GETs per tool)"
    assert [r.tool_name for r in registry] == ["get_plain"]
    problems = {p.tool: p for p in registry.problems}
    assert set(problems) == {"get_remote_0", "get_remote_1", "get_remote_2", "get_nested"}
    assert all(p.severity == "error" and "never fetched" in p.message for p in problems.values())
    assert problems["get_remote_0"].field == "parameters/$schema"


def test_a_schema_server_that_never_answers_does_not_hold_loading(tmp_path, silent_server):
    started = time.perf_counter()
    registry = _registry(tmp_path, _tool("get_remote", {**PLAIN, "$schema": f"{silent_server.url}/meta.json"}), _tool("get_plain", PLAIN))
    assert time.perf_counter() - started < 2, "it waited 31 s for the server"
    assert silent_server.requests == [] and [r.tool_name for r in registry] == ["get_plain"]


@pytest.mark.parametrize("dialect", ["urn:example:meta", "not a uri", 42, ""])
def test_an_unknown_schema_is_a_load_problem_and_the_cli_prints_no_traceback(tmp_path, dialect):
    path = _catalog(tmp_path, _tool("get_odd", {**PLAIN, "$schema": dialect}), _tool("get_plain", PLAIN))
    done = subprocess.run([sys.executable, "-m", "opgate", "--catalog", str(path), "help", "--json"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr
    groups = json.loads(done.stdout)["groups"]
    assert sum(group["ops"] for group in groups) == 1, groups
    (problem,) = build_registry(load_catalog(path)).problems
    assert problem.tool == "get_odd" and problem.severity == "error"


@pytest.mark.parametrize(
    ("dialect", "args", "ok"),
    [
        # draft 7: a list under items checks each position, and additionalItems the rest.
        ("http://json-schema.org/draft-07/schema#", {"pair": ["a", 1, "extra"]}, False),
        ("http://json-schema.org/draft-07/schema#", {"pair": ["a", 1]}, True),
        ("https://json-schema.org/draft/2020-12/schema", {"code": "x"}, True),
        ("http://json-schema.org/draft-04/schema", {"code": "x"}, True),
    ],
)
def test_known_drafts_load_offline_and_validate_by_their_own_rules(tmp_path, dialect, args, ok):
    schema = {"$schema": dialect, "type": "object", "properties": {"code": {"type": "string"}}}
    if "draft-07" in dialect:
        schema["properties"]["pair"] = {"type": "array", "items": [{"type": "string"}, {"type": "integer"}], "additionalItems": False}
    registry = _registry(tmp_path, _tool("get_thing", schema))
    assert [p for p in registry.problems if p.severity == "error"] == []
    envelope = _gateway(registry, tmp_path).exec(next(iter(registry)).op, args)
    assert envelope["ok"] is ok, envelope


# -- patterns ------------------------------------------------------------------


def test_a_catastrophic_pattern_is_matched_in_linear_time(tmp_path):
    registry = _registry(tmp_path, _tool("get_code", {"type": "object", "properties": {"code": {"type": "string", "pattern": "^(a+)+$"}}}))
    gateway = _gateway(registry, tmp_path)
    started = time.perf_counter()
    envelope = gateway.exec(next(iter(registry)).op, {"code": EVIL})
    elapsed = time.perf_counter() - started
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert envelope["error"]["details"]["field_errors"][0]["code"] == "pattern_mismatch"
    assert elapsed < 1.0, f"{elapsed:.1f} s (12.6 s with Python's re)"
    assert gateway.exec(next(iter(registry)).op, {"code": "aaaa"})["ok"] is True


def test_pattern_properties_and_additional_properties_are_matched_in_linear_time(tmp_path):
    schema = {"type": "object", "patternProperties": {"^(a+)+$": {"type": "integer"}}, "additionalProperties": False}
    registry = _registry(tmp_path, _tool("get_counts", schema))
    gateway = _gateway(registry, tmp_path)
    started = time.perf_counter()
    envelope = gateway.exec(next(iter(registry)).op, {EVIL: 1, "aaa": "not a number"})
    assert time.perf_counter() - started < 1.0
    codes = sorted(e["code"] for e in envelope["error"]["details"]["field_errors"])
    assert codes == ["invalid_type", "unknown_argument"], envelope
    assert gateway.exec(next(iter(registry)).op, {"aaa": 3})["ok"] is True


@pytest.mark.parametrize("pattern", ["(?<=a)b", "(a)\\1", "(unclosed", "a{1000}{1000}"])
def test_a_pattern_the_linear_engine_cannot_compile_is_a_load_problem(tmp_path, pattern):
    bad = _tool("get_bad", {"type": "object", "properties": {"code": {"type": "string", "pattern": pattern}}})
    keyed = _tool("get_keyed", {"type": "object", "patternProperties": {pattern: {"type": "string"}}})
    registry = _registry(tmp_path, bad, keyed, _tool("get_plain", PLAIN))
    assert [r.tool_name for r in registry] == ["get_plain"]
    problems = {p.tool: p for p in registry.problems}
    assert problems["get_bad"].field == "parameters/properties/code/pattern"
    assert problems["get_keyed"].field == "parameters/patternProperties"
    assert all("linear time" in p.message and p.severity == "error" for p in problems.values())


def test_unevaluated_properties_with_pattern_properties_is_refused_at_load(tmp_path):
    schema = {"type": "object", "patternProperties": {"^x": {"type": "string"}}, "unevaluatedProperties": False}
    registry = _registry(tmp_path, _tool("get_odd", schema), _tool("get_plain", PLAIN))
    assert [r.tool_name for r in registry] == ["get_plain"]
    assert "unevaluatedProperties" in registry.problems[0].message


# -- $ref cycles ---------------------------------------------------------------

CYCLES = {
    "two refs": {"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"$ref": "#/$defs/y"}, "y": {"$ref": "#/$defs/x"}}},
    "itself": {"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"$ref": "#/$defs/x"}}},
    "the root": {"type": "object", "allOf": [{"$ref": "#"}]},
    "through anyOf": {"type": "object", "properties": {"a": {"$ref": "#/$defs/x"}}, "$defs": {"x": {"anyOf": [{"type": "null"}, {"$ref": "#/$defs/x"}]}}},
}


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_a_ref_cycle_is_a_load_problem_and_the_other_tools_load(tmp_path, name):
    registry = _registry(tmp_path, _tool("get_loop", CYCLES[name]), _tool("get_plain", PLAIN))
    assert [r.tool_name for r in registry] == ["get_plain"]
    (problem,) = registry.problems
    assert problem.tool == "get_loop" and problem.severity == "error" and "$ref cycle" in problem.message


def test_a_recursive_schema_that_goes_down_into_the_value_still_loads_and_validates(tmp_path):
    tree = {
        "type": "object",
        "properties": {"root": {"$ref": "#/$defs/node"}},
        "$defs": {"node": {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/node"}}}}},
    }
    registry = _registry(tmp_path, _tool("get_tree", tree))
    assert registry.problems == []
    gateway = _gateway(registry, tmp_path)
    value = {"name": "a", "children": [{"name": "b", "children": [{"name": 3}]}]}
    envelope = gateway.exec(next(iter(registry)).op, {"root": value})
    assert envelope["error"]["details"]["field_errors"][0]["field"] == "args.root.children[0].children[0].name"


@pytest.mark.parametrize("name", sorted(CYCLES))
def test_exec_never_answers_internal_for_a_cycle_that_skipped_the_load_checks(tmp_path, name):
    loaded = _registry(tmp_path, _tool("get_loop", PLAIN))
    record = replace(next(iter(loaded)), parameters=CYCLES[name])
    gateway = _gateway(Registry([record]), tmp_path)
    envelope = gateway.exec(record.op, {"a": 1})
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    assert envelope["error"]["details"]["field_errors"][0]["code"] == "schema_unusable"


@pytest.mark.parametrize("dialect", [["https://json-schema.org/draft/2020-12/schema"], {"draft": "2020-12"}])
def test_exec_never_answers_internal_for_a_dialect_that_is_not_text_and_skipped_the_load_checks(tmp_path, dialect):
    # The quick check (core/exec/_quick_check.py) looked the dialect up in a set: a list or an object raised TypeError.
    loaded = _registry(tmp_path, _tool("get_plain", PLAIN))
    record = replace(next(iter(loaded)), parameters={**PLAIN, "$schema": dialect})
    gateway = _gateway(Registry([record]), tmp_path)
    envelope = gateway.exec(record.op, {"a": 1})
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    assert envelope["error"]["details"]["field_errors"][0]["code"] == "schema_unusable"
