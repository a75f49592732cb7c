"""A yes-only check of arguments: "certainly valid", or "ask jsonschema".

Importing jsonschema (with referencing, attrs and rpds) is about a third of
a one-shot ``opgate exec``, and most calls are valid against a flat schema
that uses a handful of keywords. :func:`certainly_valid` walks such a schema
with the semantics of jsonschema's draft 2020-12 keywords and answers True
only when every keyword it meets is one it knows and every value passes.
Anything else (a keyword, format or value it does not fully understand, and
every failure) answers False, and the caller asks jsonschema, so verdicts
and error messages stay jsonschema's. tests/unit/test_quick_check.py compares
the verdicts with jsonschema's over every op schema in the repository and
the shared catalogues, on generated valid and invalid arguments.
"""

from __future__ import annotations

import operator
from typing import Any

from ..linear_regex import PatternNotSupported, search

# The only dialect answered here (no ``$schema`` means 2020-12 too); other drafts differ in small ways.
_DIALECTS = frozenset({
    "https://json-schema.org/draft/2020-12/schema", "https://json-schema.org/draft/2020-12/schema#",
    "http://json-schema.org/draft/2020-12/schema", "http://json-schema.org/draft/2020-12/schema#",
})
# Keywords that only annotate: jsonschema validates nothing with them.
_ANNOTATIONS = frozenset({"description", "title", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment"})
_HEX = frozenset("0123456789abcdefABCDEF")
_NUMBER = (int, float)


def _is_uuid(text: str) -> bool:
    """The canonical 8-4-4-4-12 hex form: what jsonschema's ``uuid`` check (``uuid.UUID`` and dashes at 8, 13, 18, 23) accepts."""
    if len(text) != 36 or not text[8] == text[13] == text[18] == text[23] == "-":
        return False
    digits = text.replace("-", "")
    # 32 left means the four dashes above were the only ones; the rest must all be hex (checked in C, not per character).
    return len(digits) == 32 and _HEX.issuperset(digits)


def _same(value: Any, allowed: Any) -> bool:
    """``value == allowed`` where jsonschema's ``equal`` surely agrees: same plain type (so 1, 1.0 and True stay apart)."""
    kind = type(value)
    return kind is type(allowed) and kind in (str, int, float, bool, type(None)) and value == allowed


_TYPE_NAMES = frozenset({"string", "integer", "number", "boolean", "null", "object", "array"})


def _has_type(value: Any, name: Any) -> bool:
    kind = type(value)
    if name == "string":
        return kind is str
    if name == "integer":
        return kind is int or (kind is float and value.is_integer())
    if name == "number":
        return kind is int or kind is float
    if name == "boolean":
        return kind is bool
    if name == "null":
        return value is None
    if name == "object":
        return kind is dict
    if name == "array":
        return kind is list
    return False


def _count(limit: Any) -> bool:
    return type(limit) is int and limit >= 0


def _limit(bound: Any) -> bool:
    return type(bound) in _NUMBER


def _string_ok(schema: dict[str, Any], value: str) -> bool:
    if "minLength" in schema and not (_count(schema["minLength"]) and len(value) >= schema["minLength"]):
        return False
    if "maxLength" in schema and not (_count(schema["maxLength"]) and len(value) <= schema["maxLength"]):
        return False
    if "pattern" in schema:
        pattern = schema["pattern"]
        try:
            return type(pattern) is str and search(pattern, value)
        except PatternNotSupported:
            return False
    return True


# Each bound keyword with how the value must compare to it; no closure is made per call (every argument passes here).
_NUMBER_BOUNDS = (("minimum", operator.ge), ("maximum", operator.le), ("exclusiveMinimum", operator.gt), ("exclusiveMaximum", operator.lt))


def _number_ok(schema: dict[str, Any], value: int | float) -> bool:
    for keyword, holds in _NUMBER_BOUNDS:
        if keyword in schema and not (_limit(schema[keyword]) and holds(value, schema[keyword])):
            return False
    return True


def _size_ok(schema: dict[str, Any], size: int, least: str, most: str) -> bool:
    """``size`` (of an object or array) within the schema's ``least`` and ``most`` keywords, where present."""
    if least in schema and not (_count(schema[least]) and size >= schema[least]):
        return False
    return most not in schema or (_count(schema[most]) and size <= schema[most])


def _object_ok(schema: dict[str, Any], value: dict[str, Any], depth: int) -> bool:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    if type(properties) is not dict or type(required) is not list:
        return False
    if not all(type(name) is str and name in value for name in required):
        return False
    if not _size_ok(schema, len(value), "minProperties", "maxProperties"):
        return False
    additional = schema.get("additionalProperties", True)
    for name, item in value.items():
        if name in properties:
            if not _valid(properties[name], item, depth + 1):
                return False
        elif additional is not True and (additional is False or not _valid(additional, item, depth + 1)):
            return False
    return True


def _array_ok(schema: dict[str, Any], value: list[Any], depth: int) -> bool:
    if not _size_ok(schema, len(value), "minItems", "maxItems"):
        return False
    if "items" in schema:
        return all(_valid(schema["items"], item, depth + 1) for item in value)
    return True


_KNOWN = _ANNOTATIONS | {
    "type", "enum", "const", "format", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "properties", "required", "additionalProperties", "minProperties", "maxProperties", "items", "minItems", "maxItems",
}


def _valid(schema: Any, value: Any, depth: int) -> bool:
    if schema is True:
        return True
    if type(schema) is not dict or depth > 32 or not _KNOWN.issuperset(schema):
        return False
    if "type" in schema:
        names = schema["type"] if type(schema["type"]) is list else [schema["type"]]
        # An unknown type name makes jsonschema raise: it decides.
        if not all(type(name) is str and name in _TYPE_NAMES for name in names) or not any(_has_type(value, name) for name in names):
            return False
    # Only ``uuid`` is checked here; jsonschema checks every other format (some with a library loaded on first use).
    if "format" in schema and not (schema["format"] == "uuid" and (type(value) is not str or _is_uuid(value))):
        return False
    if "enum" in schema and not (type(schema["enum"]) is list and any(_same(value, allowed) for allowed in schema["enum"])):
        return False
    if "const" in schema and not _same(value, schema["const"]):
        return False
    kind = type(value)
    if kind is str:
        return _string_ok(schema, value)
    if kind is int or kind is float:
        return _number_ok(schema, value)
    if kind is dict:
        return _object_ok(schema, value, depth)
    if kind is list:
        return _array_ok(schema, value, depth)
    return kind is bool or value is None


def certainly_valid(schema: Any, args: Any) -> bool:
    """True only if jsonschema (draft 2020-12, formats checked) would find no error in ``args``; False means "ask it"."""
    if type(schema) is not dict or type(args) is not dict:
        return False
    dialect = schema.get("$schema")
    if dialect is not None and (type(dialect) is not str or dialect not in _DIALECTS):
        return False
    if "$schema" in schema:
        schema = {key: value for key, value in schema.items() if key != "$schema"}
    return _valid(schema, args, 0)


__all__ = ["certainly_valid"]
