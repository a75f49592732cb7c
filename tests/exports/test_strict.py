"""OpenAI strict exports: the schemas keep strict mode's rules, refusals say why, and strict calls run end to end."""

from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from opgate.core import Gateway
from opgate.core.export import to_strict_schema
from opgate.core.modes import ToolRouter, absent_nulls, build_export, format_tools, typed_tool

DEMO_PROJECT = "10000000-0000-4000-8000-000000000001"
# What strict mode understands (OpenAI's Structured Outputs subset).
STRICT_KEYWORDS = {
    "type", "description", "title", "enum", "const", "pattern", "format", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "minItems", "maxItems", "properties", "required", "additionalProperties", "items",
    "anyOf", "$ref", "$defs", "definitions",
}


def strict_rule_breaks(schema, where="$"):
    """Every place ``schema`` breaks strict mode's rules (written apart from the converter, to check it)."""
    if not isinstance(schema, dict):
        return [f"{where}: not an object"]
    breaks = [f"{where}: keyword {k}" for k in schema if k not in STRICT_KEYWORDS]
    kinds = schema.get("type") if isinstance(schema.get("type"), list) else [schema.get("type")]
    if "object" in kinds:
        properties = schema.get("properties", {})
        if schema.get("additionalProperties") is not False:
            breaks.append(f"{where}: additionalProperties is not false")
        if sorted(schema.get("required", [])) != sorted(properties):
            breaks.append(f"{where}: not every property is required")
        for name, sub in properties.items():
            breaks += strict_rule_breaks(sub, f"{where}.{name}")
    if "array" in kinds:
        breaks += strict_rule_breaks(schema.get("items"), f"{where}[]")
    for i, branch in enumerate(schema.get("anyOf", [])):
        breaks += strict_rule_breaks(branch, f"{where}|{i}")
    for name, sub in schema.get("$defs", {}).items():
        breaks += strict_rule_breaks(sub, f"{where}$defs.{name}")
    if not schema.get("type") and not any(k in schema for k in ("anyOf", "$ref", "enum", "const")):
        breaks.append(f"{where}: no type")
    return breaks


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    yield gateway
    gateway.close()


def _strict_tools(tools):
    for tool in tools:
        function = tool.get("function", tool)
        if function.get("strict"):
            yield function


def test_every_strict_schema_keeps_the_rules_and_is_valid_json_schema(gateway, real_catalog):
    name, path = real_catalog
    for source in (gateway, Gateway.from_catalogs([path], call_log=False)):
        specs = [typed_tool(r) for r in source.registry]
        tools = format_tools(specs, "openai", "full", strict=True).tools
        strict = list(_strict_tools(tools))
        assert strict, name
        for function in strict:
            Draft202012Validator.check_schema(function["parameters"])
            assert strict_rule_breaks(function["parameters"]) == [], (name, function["name"])


def test_a_tool_that_cannot_be_strict_keeps_its_schema_and_says_why(gateway):
    built = build_export(gateway, "openai", "full", strict=True)
    functions = {t["function"]["name"]: t["function"] for t in built.tools}
    assert "onto__task__create" in built.not_strict
    assert any("props" in reason and "declared" in reason for reason in built.not_strict["onto__task__create"])
    assert "strict" not in functions["onto__task__create"]
    assert functions["onto__task__create"]["parameters"] == gateway.registry.get("onto.task.create").parameters
    assert functions["onto__task__list"]["strict"] is True and "onto__task__list" not in built.not_strict
    responses = build_export(gateway, "openai-responses", "gateway", strict=True)
    assert set(responses.not_strict) == {"exec", "batch"}  # their args are free-form objects
    assert {t["name"]: t["strict"] for t in responses.tools} == {"help": True, "exec": False, "batch": False, "search": True}


@pytest.mark.parametrize(
    ("schema", "reason"),
    [
        ({"type": "object", "properties": {"m": {"type": "object"}}}, "free-form object"),
        ({"type": "object", "properties": {"m": {"type": "object", "additionalProperties": {"type": "string"}}}}, "additionalProperties"),
        ({"type": "object", "properties": {"v": {}}}, "any type"),
        ({"type": "object", "properties": {"a": {"type": "array"}}}, "items have no schema"),
        ({"type": "object", "patternProperties": {"^x": {"type": "string"}}}, "patternProperties"),
        ({"anyOf": [{"type": "object"}, {"type": "string"}]}, "root must be a plain object"),
        ({"type": "object", "properties": {"s": {"type": "string", "enum": [str(i) for i in range(1001)]}}}, "enum values"),
    ],
)
def test_what_strict_mode_cannot_express_is_refused(schema, reason):
    converted = to_strict_schema(schema)
    assert converted.schema is None
    assert any(reason in problem for problem in converted.problems), converted.problems


def test_optional_becomes_nullable_and_unsupported_rules_move_to_the_description():
    schema = {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string", "minLength": 3},
            "kind": {"enum": ["a", "b"]},
            "when": {"$ref": "#/$defs/stamp"},
            "either": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True, "default": []},
        },
        "$defs": {"stamp": {"type": "string", "format": "date-time"}},
    }
    out = to_strict_schema(schema).schema
    assert out["required"] == ["id", "kind", "when", "either", "tags"] and out["additionalProperties"] is False
    assert out["properties"]["id"] == {"type": "string", "description": "Rules: minLength 3."}
    assert out["properties"]["kind"]["enum"] == ["a", "b", None]
    assert out["properties"]["when"] == {"anyOf": [{"$ref": "#/$defs/stamp"}, {"type": "null"}]}
    assert out["properties"]["either"]["anyOf"][-1] == {"type": "null"} and "oneOf" not in json.dumps(out)
    assert out["properties"]["tags"]["type"] == ["array", "null"]
    assert "uniqueItems true" in out["properties"]["tags"]["description"] and "Default when null: []" in out["properties"]["tags"]["description"]
    validator = Draft202012Validator(out)
    assert validator.is_valid({"id": "abc", "kind": None, "when": None, "either": None, "tags": None})
    assert not validator.is_valid({"id": "abc"})  # strict: every key must be sent


def test_nulls_for_optionals_are_read_as_absent_and_a_nullable_null_is_kept():
    schema = {
        "type": "object",
        "required": ["id"],
        "properties": {
            "id": {"type": "string"},
            "note": {"type": "string"},
            "clear_me": {"type": ["string", "null"]},
            "nested": {"type": "object", "properties": {"deep": {"type": "integer"}}},
            "items": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": "string"}}}},
        },
    }
    call = {"id": None, "note": None, "clear_me": None, "nested": {"deep": None}, "items": [{"x": None}]}
    assert absent_nulls(call, schema) == {"id": None, "clear_me": None, "nested": {}, "items": [{}]}


def test_a_strict_call_with_nulls_runs_end_to_end(gateway):
    functions = {t["function"]["name"]: t["function"] for t in build_export(gateway, "openai", "full", strict=True).tools}
    router = ToolRouter(gateway)
    listing = {"project_id": DEMO_PROJECT, "state_key": None, "type_key": None, "limit": None, "offset": None}
    Draft202012Validator(functions["onto__task__list"]["parameters"]).validate(listing)  # what a strict model sends
    assert gateway.exec("onto.task.list", listing)["error"]["code"] == "VALIDATION_ERROR"  # the op itself refuses nulls
    answer = router.call("onto__task__list", listing)
    assert answer["ok"], answer
    assert answer["result"]["tasks"] and all(t.get("project_id", DEMO_PROJECT) == DEMO_PROJECT for t in answer["result"]["tasks"])
    request = {"scope": "project", "type_key": "project.podcast", "name": "Podcast", "realm": None, "description": None}
    Draft202012Validator(functions["onto__template__request"]["parameters"]).validate(request)
    written = router.call("onto__template__request", request)
    assert written["ok"], written
    assert gateway.exec("onto.template.request", request)["ok"] is False


def test_an_optional_property_that_takes_null_keeps_the_op_non_strict(gateway):
    built = build_export(gateway, "openai", "full", strict=True)
    reasons = built.not_strict["onto__document__tree__move"]
    assert reasons == ["new_parent_id: it is optional and takes null, so null and absent mean different things; strict mode cannot tell them apart"]


def test_strict_gateway_tools_take_nulls_too(gateway):
    help_schema = build_export(gateway, "openai", "gateway", strict=True).tools[0]["function"]["parameters"]
    call = {name: None for name in help_schema["properties"]} | {"path": "onto.task"}
    Draft202012Validator(help_schema).validate(call)
    answer = ToolRouter(gateway).call("help", call)
    assert answer["ok"] and answer["path"] == "onto.task"


def test_every_null_a_strict_schema_allows_for_an_optional_is_read_as_absent(gateway, real_catalog):
    """The converter and the router agree: each optional it made nullable, absent_nulls drops when null."""
    _, path = real_catalog
    checked = 0
    for source in (gateway, Gateway.from_catalogs([path], call_log=False)):
        for record in source.registry:
            strict = to_strict_schema(record.parameters).schema
            if strict is None:
                continue
            optional = set(record.parameters.get("properties", {})) - set(record.parameters.get("required", []))
            definitions = {k: strict[k] for k in ("$defs", "definitions") if k in strict}
            for name in optional:  # the strict schema lets the model say "not given" with null
                assert Draft202012Validator({**strict["properties"][name], **definitions}).is_valid(None), (record.op, name)
            assert absent_nulls({name: None for name in optional}, record.parameters) == {}, record.op
            checked += 1
    assert checked > 40
