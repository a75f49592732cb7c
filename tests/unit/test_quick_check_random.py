"""The quick check against jsonschema on random schemas: every keyword of draft 2020-12, not only the ones catalogues use.

tests/unit/test_quick_check.py draws arguments for the schemas that exist;
here the schemas are drawn too, mixing the keywords the quick check knows
with those it must leave to jsonschema (``allOf``/``anyOf``/``oneOf``/``not``,
``if``/``then``/``else``, ``$ref``/``$defs``, ``dependentRequired``,
``unevaluatedProperties``, ``propertyNames``, ``patternProperties``,
``prefixItems``, ``uniqueItems``, ``multipleOf``, other drafts' ``$schema``),
with bounds and values that differ only in type (1, 1.0, True), NaN and
infinities, integers past 2**64, text whose length differs in code points
and UTF-16 units, and formats. A quick "valid" must be jsonschema's verdict.
"""

from __future__ import annotations

import random
from typing import Any

import referencing

from opgate.core._jsonschema import Draft202012Validator
from opgate.core.exec._quick_check import certainly_valid
from opgate.core.schema_validator import validator_class_for

ROUNDS = 20_000
TYPES = ["string", "integer", "number", "boolean", "null", "object", "array"]
PATTERNS = ["^a", "a$", "^[a-z]+$", "\\d", "\\w+", "^\\p{L}+$", "é", "^.{2}$", "^.$", "[^\\x00-\\x7f]", "^$", "\\s", "^\\S+$"]
SCALARS: list[Any] = [
    0, 1, -1, 1.0, -0.0, 0.5, True, False, None, 2**64, -(2**64), 10**400, 1e308, float("inf"), float("-inf"), float("nan"),
    "", "a", "ab", "é", "🎉", "🎉🎉", "a\u0301", "1", "true", "ABC", "foo bar", "x" * 5,
    "00000000-0000-0000-0000-000000000000", "00000000-0000-0000-0000-00000000000G", "{00000000-0000-0000-0000-000000000000}",
    "00000000000000000000000000000000", "2026-03-01T09:00:00Z", "2026-13-01T09:00:00Z",
]
COMPOUND: list[Any] = [[1], [True], [1.0], [[1]], {"a": 1}, {"a": True}, {"a": 1.0}, [1, 1.0], [1, True]]
# Values equal in Python that jsonschema tells apart (True and 1), or not (1 and 1.0): enum, const and values draw from them most.
CONFUSABLE: list[Any] = [0, 1, 1.0, 0.0, -0.0, True, False, None, "1", "", [1], [True], [1.0], {"a": 1}, {"a": True}]
FORMATS: list[Any] = ["uuid", "date-time", "email", "int32", "uri", "ipv4", "regex", "date", 5]
KEYWORDS = [
    "type", "enum", "const", "format", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
    "properties", "required", "additionalProperties", "minProperties", "maxProperties", "items", "minItems", "maxItems", "description", "default",
    "allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "unevaluatedProperties", "unevaluatedItems",
    "propertyNames", "patternProperties", "prefixItems", "uniqueItems", "contains", "minContains", "multipleOf", "$ref", "$defs", "$schema", "$id",
]
NAMES = ["a", "b", "é"]


def _schema(rng: random.Random, depth: int = 0) -> Any:
    if depth > 3 or rng.random() < 0.1:
        return rng.choice([True, False, {}])
    schema: dict[str, Any] = {}
    for _ in range(rng.choice([1, 1, 2, 2, 3, 4])):
        keyword = rng.choice(KEYWORDS)
        sub = lambda: _schema(rng, depth + 1)
        if keyword == "type":
            schema[keyword] = rng.choice(TYPES) if rng.random() < 0.8 else rng.sample(TYPES, 2)
        elif keyword == "enum":
            schema[keyword] = [rng.choice(CONFUSABLE if rng.random() < 0.7 else SCALARS + COMPOUND) for _ in range(rng.randint(1, 3))]
        elif keyword == "const":
            schema[keyword] = rng.choice(CONFUSABLE if rng.random() < 0.7 else SCALARS + COMPOUND)
        elif keyword == "format":
            schema[keyword] = rng.choice(FORMATS)
        elif keyword in ("minLength", "maxLength", "minProperties", "maxProperties", "minItems", "maxItems", "minContains"):
            schema[keyword] = rng.choice([0, 1, 2, 3, True, 1.0, -1])
        elif keyword == "pattern":
            schema[keyword] = rng.choice(PATTERNS)
        elif keyword in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"):
            schema[keyword] = rng.choice([0, 1, 2, 3, -1, 0.5, 1.0, True, 2**64, 1e308, float("inf"), float("nan")])
        elif keyword == "properties":
            schema[keyword] = {name: sub() for name in rng.sample(NAMES, rng.randint(1, 2))}
        elif keyword == "required":
            schema[keyword] = rng.sample(NAMES, rng.randint(0, 2))
        elif keyword in ("additionalProperties", "unevaluatedProperties", "unevaluatedItems", "propertyNames", "items", "not", "if", "then", "else", "contains"):
            schema[keyword] = sub()
        elif keyword in ("allOf", "anyOf", "oneOf", "prefixItems"):
            schema[keyword] = [sub() for _ in range(rng.randint(1, 2))]
        elif keyword == "dependentRequired":
            schema[keyword] = {"a": ["b"]}
        elif keyword == "dependentSchemas":
            schema[keyword] = {"a": sub()}
        elif keyword == "patternProperties":
            schema[keyword] = {rng.choice(PATTERNS): sub()}
        elif keyword == "uniqueItems":
            schema[keyword] = rng.choice([True, False])
        elif keyword == "$ref":
            schema[keyword] = rng.choice(["#/$defs/x", "#", "#/properties/a"])
        elif keyword == "$defs":
            schema[keyword] = {"x": sub()}
        elif keyword == "$schema":
            schema[keyword] = rng.choice(["https://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft-07/schema#", "http://json-schema.org/draft-04/schema#"])
        elif keyword == "$id":
            schema[keyword] = "urn:example:x"
        else:
            schema[keyword] = "a note"
    return schema


def _value(rng: random.Random, depth: int = 0) -> Any:
    if depth > 2 or rng.random() < 0.5:
        return rng.choice(CONFUSABLE if rng.random() < 0.4 else SCALARS)
    if rng.random() < 0.5:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 3))]
    return {name: _value(rng, depth + 1) for name in rng.sample([*NAMES, "c"], rng.randint(0, 3))}


def _errors(schema: Any, args: Any) -> list | Exception:
    """The dispatcher's validator's errors (its draft, linear patterns, formats checked, no remote $ref), or what it raised."""
    try:
        validator = validator_class_for(schema)(schema, format_checker=Draft202012Validator.FORMAT_CHECKER, registry=referencing.Registry())
        return [error.message for error in validator.iter_errors(args)]
    except Exception as exc:  # noqa: BLE001 - a schema jsonschema cannot use must never have been vouched for
        return exc


def test_a_quick_yes_on_a_random_schema_is_a_jsonschema_yes():
    rng = random.Random(2020_12)
    vouched = 0
    for _ in range(ROUNDS):
        inner = _schema(rng)
        if rng.random() < 0.7:
            schema = {"type": "object", "properties": {"a": inner, "b": _schema(rng) if rng.random() < 0.3 else True}}
        else:
            schema = inner if isinstance(inner, dict) else {}
        if rng.random() < 0.2:
            schema["additionalProperties"] = _schema(rng)
        if rng.random() < 0.2:
            schema["required"] = ["a"]
        args = {name: _value(rng) for name in rng.sample(["a", "b", "c"], rng.randint(0, 3))}
        if certainly_valid(schema, args):
            vouched += 1
            assert _errors(schema, args) == [], (schema, args)
    assert vouched > ROUNDS // 10  # it does say yes, so the comparison means something
