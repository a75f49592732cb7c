"""The quick check says "valid" only where jsonschema finds no error.

``certainly_valid`` lets a call skip importing jsonschema; a wrong "valid"
would let a bad call run. Its verdicts are compared with the validator the
dispatcher builds (the schema's draft, linear-time patterns, formats
checked, no remote ``$ref``) over every op schema of every catalogue in the
repository, its test fixtures and the shared real catalogues, on argument
sets generated from each schema: valid ones and broken ones (1 against 1.0
against True, numbers as strings, unicode, huge integers, bounds and
lengths off by one, uuids in the forms uuid.UUID accepts, missing and
unknown keys).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import referencing

from opgate.core._builtin import builtin_catalog_loads
from opgate.core._jsonschema import Draft202012Validator
from opgate.core.catalog import load_catalog
from opgate.core.exec._quick_check import certainly_valid
from opgate.core.exec._validation import ArgumentValidator
from opgate.core.registry import build_registry
from opgate.core.schema_validator import validator_class_for

from hostile_catalog import hostile_tool

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared" / "data"
UUID = "10000000-0000-4000-8000-00000000000a"
ODD_UUIDS = [UUID.upper(), "{" + UUID + "}", UUID.replace("-", ""), "urn:uuid:" + UUID, UUID[:-1], UUID + "\n", UUID.replace("-", "_"), UUID[:35] + "g", UUID.replace("a", "\u0661")]
STRINGS = ["", "x", "héllo wörld", "日本語", "emoji 🎉", "a" * 101, " ", "0", "true", "2026-03-01T09:00:00Z", "not a date", "a_b.c", "A-B", "line\nbreak"]
NUMBERS = [0, 1, -1, 1.0, 0.5, -0.0, True, False, 2**70, -(2**70), 1e308, float("inf"), 200, 201, 1_000_000, 1_000_001, "1", None]


def _schemas() -> list[tuple[str, Any]]:
    loads = builtin_catalog_loads()
    for path in [SHARED / "catalogs" / name for name in ("github_mcp_tools_list.json", "loom_tools.json", "twilio_openapi_tools.json")] + [
        SHARED / "openapi" / "twilio_api_v2010.json", SHARED / "openapi" / "twilio_events_v1.json", SHARED / "openapi" / "twilio_lookups_v2.json",
        REPO / "tests" / "http" / "loopback_openapi.json",
    ]:
        if not path.exists():
            pytest.fail(f"test data is missing: {path}")
        loads += load_catalog(path)
    registry = build_registry(loads)
    found = [(record.op, record.parameters) for record in registry]
    found.append(("hostile", hostile_tool()["function"]["parameters"]))
    return found + [(f"edge{i}", schema) for i, schema in enumerate(EDGE_SCHEMAS)]


EDGE_SCHEMAS: list[Any] = [
    {"type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "exclusiveMaximum": 10}}, "additionalProperties": False},
    {"type": "object", "properties": {"n": {"type": "number", "exclusiveMinimum": 0, "maximum": 1.5}}},
    {"type": "object", "properties": {"n": {"enum": [1, "1", True, None, 1.5]}}},
    {"type": "object", "properties": {"n": {"const": 1}}},
    {"type": "object", "properties": {"n": {"const": True}}},
    {"type": "object", "properties": {"n": {"type": ["string", "null"], "minLength": 2, "maxLength": 3}}},
    {"type": "object", "properties": {"n": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 2}}},
    {"type": "object", "properties": {"n": {"type": "array", "items": [{"type": "integer"}]}}},  # a 2019 form in a 2020 schema
    {"type": "object", "properties": {"n": {"type": "integer", "format": "date-time"}}},
    {"type": "object", "properties": {"n": {"type": "string", "format": "uuid"}}, "required": ["n"]},
    {"type": "object", "properties": {"n": {"type": "strnig"}}},
    {"type": "object", "properties": {"n": {"type": ["integer", "strnig"]}}},
    {"type": "object", "properties": {"n": {"type": []}}},
    {"type": "object", "properties": {"n": {"type": "string", "pattern": "^[a-z]+$"}}},
    {"type": "object", "properties": {"n": {"type": "string", "pattern": "(?=a)"}}},  # lookahead: the linear engine refuses it
    {"type": "object", "properties": {"n": {"minimum": True}}},
    {"type": "object", "properties": {"n": {"maxLength": 2.5}}},
    {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1, "maxProperties": 2},
    {"type": "object", "additionalProperties": {"type": "integer"}, "patternProperties": {"^x": {"type": "string"}}},
    {"type": "object", "properties": {"n": False, "m": True}},
    {"type": "object", "properties": {"n": {"$ref": "#/$defs/n"}}, "$defs": {"n": {"type": "integer"}}},
    {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "properties": {"n": {"type": "integer", "minimum": 1, "exclusiveMinimum": True}}},
    {"$schema": "https://json-schema.org/draft/2020-12/schema", "type": "object", "properties": {"n": {"type": "integer"}}},
    {"type": "object", "properties": {"n": {"type": "object", "properties": {"m": {"type": "integer"}}, "required": ["m"], "additionalProperties": False}}},
    {"type": "object", "properties": {"n": {"type": "string", "x-note": "an unknown keyword"}}},
    {"type": "object", "required": [1]},
    {"type": "object", "properties": {"n": {"enum": [[1], {"a": 1}]}}},
    {"type": "object", "properties": {"n": {"type": "integer", "multipleOf": 2}}},
]


def _value(schema: Any, rng: random.Random, depth: int = 0) -> Any:
    """A value aimed at ``schema`` (often valid, sometimes not: that is the point)."""
    if not isinstance(schema, dict) or depth > 4:
        return rng.choice(STRINGS + NUMBERS)
    if "enum" in schema and isinstance(schema["enum"], list) and schema["enum"] and rng.random() < 0.8:
        return rng.choice(schema["enum"])
    if "const" in schema and rng.random() < 0.8:
        return schema["const"]
    kind = schema.get("type")
    if isinstance(kind, list) and kind:
        kind = rng.choice(kind)
    if kind == "object" or "properties" in schema:
        return _object(schema, rng, depth + 1)
    if kind == "array":
        return [_value(schema.get("items"), rng, depth + 1) for _ in range(rng.choice([0, 1, 2, 3]))]
    if kind in ("integer", "number"):
        low, high = schema.get("minimum", -5), schema.get("maximum", 1_000)
        if not isinstance(low, (int, float)) or not isinstance(high, (int, float)) or isinstance(low, bool) or isinstance(high, bool):
            return rng.choice(NUMBERS)
        return rng.choice([low, high, low - 1, high + 1, int((low + high) // 2), float(low), rng.choice(NUMBERS)])
    if kind == "boolean":
        return rng.choice([True, False, 1, 0, "true", None])
    if kind == "null":
        return rng.choice([None, None, 0, ""])
    if schema.get("format") == "uuid":
        return rng.choice([UUID] * 4 + ODD_UUIDS)
    if kind == "string":
        low, high = schema.get("minLength", 0), schema.get("maxLength", 20)
        if isinstance(low, int) and isinstance(high, int) and rng.random() < 0.5:
            return rng.choice(["a" * low, "é" * low, "b" * max(high, 0), "c" * (high + 1), "a" * max(low - 1, 0)])
        return rng.choice(STRINGS)
    return rng.choice(STRINGS + NUMBERS)


def _object(schema: dict[str, Any], rng: random.Random, depth: int) -> dict[str, Any]:
    properties = schema.get("properties") if isinstance(schema.get("properties"), dict) else {}
    required = [name for name in schema.get("required", []) if isinstance(name, str)] if isinstance(schema.get("required"), list) else []
    names = set(required) | {name for name in properties if rng.random() < 0.4}
    if rng.random() < 0.15 and required:
        names.discard(rng.choice(required))
    value = {name: _value(properties.get(name), rng, depth) for name in sorted(names)}
    if rng.random() < 0.1:
        value[rng.choice(["extra", "limt", "ñame"])] = rng.choice(STRINGS + NUMBERS)
    return value


def _jsonschema_errors(schema: Any, args: Any) -> list | None:
    """The dispatcher's validator's errors, or None when the schema cannot be used (it raises)."""
    try:
        validator = validator_class_for(schema)(schema, format_checker=Draft202012Validator.FORMAT_CHECKER, registry=referencing.Registry())
        return list(validator.iter_errors(args))
    except Exception:
        return None


def test_a_quick_yes_is_always_a_jsonschema_yes():
    rng = random.Random(16)
    vouched = checked = 0
    builtin_vouched = builtin_valid = 0
    for op, schema in _schemas():
        rounds = 60 if "." in op and not op.startswith(("twilio", "github", "loom")) else 12
        for _ in range(rounds):
            args = _value(schema, rng) if rng.random() < 0.95 else rng.choice([{}, {"": 1}])
            if not isinstance(args, dict):
                args = {}
            quick = certainly_valid(schema, args)
            errors = _jsonschema_errors(schema, args)
            checked += 1
            if quick:
                vouched += 1
                assert errors == [], f"{op}: quick check said valid, jsonschema found {[e.message for e in errors or []]} for {args!r}"
            if op.startswith("onto.") or op.startswith("util."):
                builtin_valid += errors == []
                builtin_vouched += quick
    assert checked > 20_000
    # Not a check that never says yes: most valid calls of the built-in ops need no jsonschema.
    assert builtin_vouched > 0.8 * builtin_valid, (builtin_vouched, builtin_valid)


@pytest.mark.parametrize("schema", EDGE_SCHEMAS, ids=range(len(EDGE_SCHEMAS)))
def test_edge_schemas_on_every_kind_of_value(schema):
    for value in STRINGS + NUMBERS + ODD_UUIDS + [UUID, [], [1], [1, 2, 3], ["a"], {}, {"m": 1}, {"m": 1, "k": 2}, [[1]], {"a": 1}]:
        for args in ({"n": value}, {"n": value, "m": value}, {"x1": value}):
            if certainly_valid(schema, args):
                assert _jsonschema_errors(schema, args) == [], (schema, args)


def test_bool_int_and_float_never_stand_for_each_other():
    schema = {"type": "object", "properties": {"n": {"enum": [1]}, "b": {"const": True}, "i": {"type": "integer"}, "s": {"type": "boolean"}}}
    assert certainly_valid(schema, {"n": 1, "b": True, "i": 2, "s": False})
    for args in ({"n": True}, {"b": 1}, {"i": True}, {"i": 1.5}, {"s": 0}, {"s": 1}):
        assert not certainly_valid(schema, args), args
    assert certainly_valid(schema, {"i": 2.0}) and _jsonschema_errors(schema, {"i": 2.0}) == []  # jsonschema counts 2.0 as an integer


def test_the_validator_answers_the_same_with_or_without_the_quick_check():
    """Invalid arguments still get jsonschema's field errors and headline; valid ones none."""
    registry = build_registry(builtin_catalog_loads())
    record = registry.resolve("onto.task.list")
    validator = ArgumentValidator()
    assert validator.check(record, {"limit": 5, "project_id": UUID}) == ([], "")
    errors, headline = validator.check(record, {"limit": 0, "state_key": "doing", "project_id": UUID.upper() + "x", "limt": 3})
    assert {e["code"] for e in errors} == {"unknown_argument", "out_of_range", "not_in_enum", "invalid_format"}
    assert headline
