"""A yes-only check of arguments: "certainly valid", or "ask jsonschema".

Importing jsonschema (with referencing, attrs and rpds) is about a third of
a one-shot ``opgate exec``, and most calls are valid against a flat schema
that uses a handful of keywords. :func:`certainly_valid` checks against such
a schema with the semantics of jsonschema's draft 2020-12 keywords and
answers True only when every keyword it meets is one it knows and every
value passes. Each schema is compiled once, on its first call, into nested
checks with its keywords already read (every exec passes here, and walking
the schema's dicts again on each call was most of the check's cost).
Anything else (a keyword, format or value it does not fully understand, and
every failure) answers False, and the caller asks jsonschema, so verdicts
and error messages stay jsonschema's. tests/unit/test_quick_check.py compares
the verdicts with jsonschema's over every op schema in the repository and
the shared catalogues, on generated valid and invalid arguments.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
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


# Each bound keyword with how the value must compare to it.
_NUMBER_BOUNDS = (("minimum", operator.ge), ("maximum", operator.le), ("exclusiveMinimum", operator.gt), ("exclusiveMaximum", operator.lt))

_KNOWN = _ANNOTATIONS | {
    "type", "enum", "const", "format", "minLength", "maxLength", "pattern", "minimum", "maximum", "exclusiveMinimum",
    "exclusiveMaximum", "properties", "required", "additionalProperties", "minProperties", "maxProperties", "items", "minItems", "maxItems",
}

Check = Callable[[Any], bool]
"""A compiled schema: True only if the value certainly passes it."""


def _never(value: Any) -> bool:
    return False


def _always(value: Any) -> bool:
    return True


def _sizes(schema: dict[str, Any], least: str, most: str) -> tuple[int, int | None] | None:
    """The (lowest, highest or None) size the ``least`` and ``most`` keywords allow; None if either is no count."""
    lo = schema.get(least, 0)
    hi = schema.get(most)
    if (least in schema and not _count(lo)) or (most in schema and not _count(hi)):
        return None
    return lo, hi


def _string_check(schema: dict[str, Any]) -> Check:
    sizes = _sizes(schema, "minLength", "maxLength")
    pattern = schema.get("pattern")
    if sizes is None or ("pattern" in schema and type(pattern) is not str):
        return _never
    lo, hi = sizes

    def check(value: str) -> bool:
        if len(value) < lo or (hi is not None and len(value) > hi):
            return False
        if pattern is None:
            return True
        try:
            return search(pattern, value)
        except PatternNotSupported:
            return False

    return check


def _number_check(schema: dict[str, Any]) -> Check:
    bounds = []
    for keyword, holds in _NUMBER_BOUNDS:
        if keyword in schema:
            if not _limit(schema[keyword]):
                return _never
            bounds.append((holds, schema[keyword]))
    if not bounds:
        return _always

    def check(value: float) -> bool:  # an int too
        for holds, bound in bounds:
            if not holds(value, bound):
                return False
        return True

    return check


def _object_check(schema: dict[str, Any], depth: int) -> Check:
    properties = schema.get("properties", {})
    required = schema.get("required", [])
    sizes = _sizes(schema, "minProperties", "maxProperties")
    if type(properties) is not dict or type(required) is not list or sizes is None or not all(type(name) is str for name in required):
        return _never
    lo, hi = sizes
    children = {name: _compile(child, depth + 1) for name, child in properties.items()}
    additional = schema.get("additionalProperties", True)
    # Names outside ``properties``: anything (None), nothing, or what the additional schema allows.
    other = None if additional is True else _compile(additional, depth + 1)
    needed = tuple(required)

    def check(value: dict[str, Any]) -> bool:
        for name in needed:
            if name not in value:
                return False
        if len(value) < lo or (hi is not None and len(value) > hi):
            return False
        for name, item in value.items():
            child = children.get(name)
            if child is not None:
                if not child(item):
                    return False
            elif other is not None and not other(item):
                return False
        return True

    return check


def _array_check(schema: dict[str, Any], depth: int) -> Check:
    sizes = _sizes(schema, "minItems", "maxItems")
    if sizes is None:
        return _never
    lo, hi = sizes
    items = _compile(schema["items"], depth + 1) if "items" in schema else _always

    def check(value: list[Any]) -> bool:
        if len(value) < lo or (hi is not None and len(value) > hi):
            return False
        return all(map(items, value))

    return check


def _compile(schema: Any, depth: int) -> Check:
    """``schema`` made into a check, its keywords read once; a keyword it does not fully know makes a check that says no."""
    if schema is True:
        return _always
    if type(schema) is not dict or depth > 32 or not _KNOWN.issuperset(schema):
        return _never
    tests: list[Check] = []
    if "type" in schema:
        names = tuple(schema["type"]) if type(schema["type"]) is list else (schema["type"],)
        # An unknown type name makes jsonschema raise: it decides.
        if not all(type(name) is str and name in _TYPE_NAMES for name in names):
            return _never
        tests.append(lambda value: any(_has_type(value, name) for name in names))
    # Only ``uuid`` is checked here; jsonschema checks every other format (some with a library loaded on first use).
    if "format" in schema:
        if schema["format"] != "uuid":
            return _never
        tests.append(lambda value: type(value) is not str or _is_uuid(value))
    if "enum" in schema:
        allowed = schema["enum"]
        if type(allowed) is not list:
            return _never
        tests.append(lambda value: any(_same(value, choice) for choice in allowed))
    if "const" in schema:
        const = schema["const"]
        tests.append(lambda value: _same(value, const))
    string, number = _string_check(schema), _number_check(schema)
    obj, array = _object_check(schema, depth), _array_check(schema, depth)

    def check(value: Any) -> bool:
        for test in tests:
            if not test(value):
                return False
        kind = type(value)
        if kind is str:
            return string(value)
        if kind is int or kind is float:
            return number(value)
        if kind is dict:
            return obj(value)
        if kind is list:
            return array(value)
        return kind is bool or value is None

    return check


_CHECKS_KEPT = 4096
_checks: dict[int, tuple[dict[str, Any], Check]] = {}


def _check_for(schema: dict[str, Any]) -> Check:
    """The compiled check of ``schema``, made on first use.

    Keyed by the schema's identity, as the validators are (an op's schema is
    read once, when the registry loads, and never changed); the entry holds
    the schema, so its id is never reused while kept. When full, the table
    starts again.
    """
    found = _checks.get(id(schema))
    if found is not None and found[0] is schema:
        return found[1]
    dialect = schema.get("$schema")
    if dialect is not None and (type(dialect) is not str or dialect not in _DIALECTS):
        check = _never
    else:
        check = _compile({key: value for key, value in schema.items() if key != "$schema"} if "$schema" in schema else schema, 0)
    if len(_checks) >= _CHECKS_KEPT:
        _checks.clear()
    _checks[id(schema)] = (schema, check)
    return check


def certainly_valid(schema: Any, args: Any) -> bool:
    """True only if jsonschema (draft 2020-12, formats checked) would find no error in ``args``; False means "ask it"."""
    if type(schema) is not dict or type(args) is not dict:
        return False
    return bool(_check_for(schema)(args))


__all__ = ["certainly_valid"]
