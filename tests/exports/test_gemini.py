"""Gemini: the JSON Schema unchanged through parameters_json_schema, and a faithful OpenAPI-subset conversion."""

from __future__ import annotations

import pytest
from google.genai import types

from opgate.core import Gateway
from opgate.core.export import to_gemini_schema
from opgate.core.modes import export


@pytest.fixture(scope="module")
def gateway(tmp_path_factory):
    gateway = Gateway(db_path=tmp_path_factory.mktemp("gemini") / "w.db")
    yield gateway
    gateway.close()


def _declarations(tools):
    assert len(tools) == 1 and set(tools[0]) == {"function_declarations"}
    return {d["name"]: d for d in tools[0]["function_declarations"]}


@pytest.mark.parametrize("op", ["onto.project.update", "onto.risk.update"])
def test_the_ops_google_genai_rejected_now_parse(gateway, op):
    name = op.replace(".", "__")
    converted = _declarations(export(gateway, "gemini-openapi", "full"))[name]
    declaration = types.FunctionDeclaration.model_validate(converted)
    nullable_enums = [p for p in declaration.parameters.properties.values() if p.enum and p.nullable]
    assert nullable_enums and all(None not in p.enum for p in nullable_enums)
    unchanged = _declarations(export(gateway, "gemini", "full"))[name]
    assert types.FunctionDeclaration.model_validate(unchanged).parameters_json_schema == gateway.registry.get(op).parameters


def test_type_lists_become_nullable_or_any_of():
    out = to_gemini_schema({
        "type": "object",
        "properties": {
            "maybe": {"type": ["string", "null"], "maxLength": 5},
            "mixed": {"type": ["string", "number", "null"], "minimum": 1, "pattern": "^a"},
        },
    })
    assert out["properties"]["maybe"] == {"type": "string", "nullable": True, "maxLength": 5}
    mixed = out["properties"]["mixed"]
    assert mixed["nullable"] is True and "type" not in mixed
    assert mixed["anyOf"] == [{"type": "string", "pattern": "^a"}, {"type": "number", "minimum": 1}]
    types.Schema.model_validate(out)


def test_one_of_keeps_its_meaning_as_any_of():
    disjoint = to_gemini_schema({"type": "object", "properties": {"v": {"oneOf": [{"type": "string"}, {"type": "integer"}]}}})
    assert disjoint["properties"]["v"] == {"anyOf": [{"type": "string"}, {"type": "integer"}]}
    overlapping = to_gemini_schema({"type": "object", "properties": {"v": {"oneOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}},
        {"type": "object", "properties": {"b": {"type": "string"}}},
    ]}}})
    assert len(overlapping["properties"]["v"]["anyOf"]) == 2
    assert "Exactly one" in overlapping["properties"]["v"]["description"]


def test_refs_stay_references_and_formats_and_additional_properties_are_kept():
    out = to_gemini_schema({
        "type": "object",
        "properties": {
            "when": {"$ref": "#/$defs/stamp"},
            "labels": {"type": "object", "additionalProperties": {"type": "string"}},
            "closed": {"type": "object", "properties": {"x": {"type": "integer", "enum": [1, 2]}}, "additionalProperties": False},
            "size": {"type": "integer", "multipleOf": 4, "exclusiveMinimum": 0},
            "kind": {"const": "fixed"},
        },
        "$defs": {"stamp": {"type": "string", "format": "date-time"}},
    })
    assert out["properties"]["when"] == {"ref": "#/defs/stamp"}
    assert out["defs"] == {"stamp": {"type": "string", "format": "date-time"}}
    assert out["properties"]["labels"]["additionalProperties"] == {"type": "string"}
    assert out["properties"]["closed"]["additionalProperties"] is False
    assert out["properties"]["closed"]["properties"]["x"] == {"type": "integer", "enum": ["1", "2"], "format": "enum"}
    assert "multipleOf 4" in out["properties"]["size"]["description"] and "exclusiveMinimum 0" in out["properties"]["size"]["description"]
    assert out["properties"]["kind"]["enum"] == ["fixed"]
    types.Schema.model_validate(out)


def test_all_of_is_folded_in():
    out = to_gemini_schema({"type": "object", "properties": {"v": {"allOf": [
        {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        {"properties": {"b": {"type": "integer"}}, "required": ["b"]},
    ]}}})
    assert out["properties"]["v"] == {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["a", "b"]}
