"""An op's JSON Schema made fit for OpenAI's strict function calling, or the reasons it cannot be.

Strict mode (Structured Outputs) accepts a subset of JSON Schema: every
object lists all its properties in ``required`` and sets
``additionalProperties: false``; the root is an object; unions are
``anyOf``. The conversion:

- an optional property becomes required and nullable (``["string", "null"]``,
  ``null`` added to an ``enum``, a ``{"type": "null"}`` branch for ``anyOf``
  and ``$ref``). The router reads a null for such a property as "not given"
  (:func:`opgate.core.modes.absent_nulls`), so the call means what the model meant;
- ``oneOf`` becomes ``anyOf`` (with a sentence when the branches could overlap),
  ``allOf`` is folded in, ``default`` moves into the description;
- restrictions strict mode lacks (``minLength``, ``uniqueItems``, formats it
  does not know...) move into the description; exec still enforces them.

What cannot be expressed makes the op non-strict, with a reason per place:
free-form objects and maps (strict mode needs every key declared), an
optional property that already takes null (null and absent would blur),
``patternProperties``, values with no type, tuple arrays, arrays without
``items``, a root that is not a plain object, and schemas past the size limits.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from ..jsonpointer import resolve_local_schema
from ._keywords import branches_are_disjoint, is_annotation, merge_all_of, types_of, with_note

# What strict mode understands, besides the structural keywords handled one by one below.
_KEPT = frozenset({
    "type", "description", "title", "enum", "const", "pattern", "multipleOf", "maximum", "exclusiveMaximum",
    "minimum", "exclusiveMinimum", "minItems", "maxItems",
})
_FORMATS = frozenset({"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"})
_STRUCTURAL = frozenset({"properties", "required", "additionalProperties", "items", "anyOf", "oneOf", "allOf", "$ref", "$defs", "definitions", "format", "default", "examples", "example", "nullable"})
_IMPOSSIBLE = {
    "patternProperties": "keys matching a pattern (patternProperties)",
    "propertyNames": "rules on key names (propertyNames)",
    "prefixItems": "a tuple (prefixItems)",
    "unevaluatedProperties": "unevaluatedProperties",
}
# OpenAI's documented limits for one strict schema.
MAX_PROPERTIES = 5000
MAX_DEPTH = 10
MAX_ENUM_VALUES = 1000
_NULL = {"type": "null"}


@dataclass
class StrictSchema:
    """The strict form of a schema (``None`` when there is none) and why not, one reason per place."""

    schema: dict[str, Any] | None
    problems: list[str] = field(default_factory=list)


class _Converter:
    def __init__(self, root: dict[str, Any]):
        self.root = root
        self.problems: list[str] = []
        self.properties = 0
        self.enum_values = 0
        self.deepest = 0

    def refuse(self, where: str, why: str) -> None:
        self.problems.append(f"{where or 'the arguments'}: {why}")

    def convert(self, schema: Any, where: str, depth: int) -> dict[str, Any]:
        self.deepest = max(self.deepest, depth)
        if not isinstance(schema, dict):
            self.refuse(where, "a boolean schema has no strict form")
            return {}
        if "allOf" in schema:
            merged = merge_all_of(schema)
            if merged is None:
                self.refuse(where, "its allOf branches disagree, so they cannot be folded into one schema")
                return {}
            schema = merged
        if isinstance(schema.get("$ref"), str):
            return self._reference(schema, where, depth)
        for keyword, why in _IMPOSSIBLE.items():
            if keyword in schema:
                self.refuse(where, f"strict mode cannot express {why}")
        out: dict[str, Any] = {}
        rules: dict[str, Any] = {}
        sentences: list[str] = []
        for key, value in schema.items():
            if key in _KEPT:
                out[key] = value
            elif key == "format":
                (out.__setitem__("format", value) if value in _FORMATS else rules.__setitem__("format", value))
            elif key == "default":
                sentences.append(f"Default when null: {_short(value)}.")
            elif key in ("anyOf", "oneOf"):
                out["anyOf"] = [self.convert(b, f"{where}({key}[{i}])", depth + 1) for i, b in enumerate(value if isinstance(value, list) else [])]
                if key == "oneOf" and not branches_are_disjoint([b for b in value if isinstance(b, dict)]):
                    sentences.append("Exactly one of the alternatives must match.")
            elif key not in _STRUCTURAL and key not in _IMPOSSIBLE and not is_annotation(key) and key not in ("examples", "example"):
                rules[key] = value
        if schema.get("nullable") is True:  # OpenAPI 3.0's way of saying it
            out = nullable(out)
        if isinstance(out.get("enum"), list):
            self.enum_values += len(out["enum"])
        kinds = types_of(out if "type" in out else schema)
        if "object" in kinds or ("properties" in schema and not kinds):
            self._object(schema, out, where, depth, root=depth == 0)
        if "array" in kinds:
            self._array(schema, out, where, depth)
        if not kinds and not any(k in out for k in ("enum", "const", "anyOf")):
            self.refuse(where, "it accepts a value of any type; strict mode needs a type")
        if len([k for k in kinds if k != "null"]) > 1:
            out.pop("type")
            out["anyOf"] = [_one_type(k, out) for k in kinds]
            for moved in {k for branch in out["anyOf"] for k in branch if k != "type"}:
                out.pop(moved, None)
        return with_note(out, rules, sentences)

    def _reference(self, schema: dict[str, Any], where: str, depth: int) -> dict[str, Any]:
        ref = schema["$ref"]
        siblings = {k: v for k, v in schema.items() if k != "$ref" and not is_annotation(k)}
        if resolve_local_schema(self.root, ref) is None:
            self.refuse(where, f"its reference {ref} points outside the schema")
            return {}
        if set(siblings) - {"description"}:
            # OpenAI ignores what sits beside a $ref; inline the target so the extra keywords count.
            return self.convert({**resolve_local_schema(self.root, ref), **siblings}, where, depth)
        return {"$ref": ref, **siblings}

    def _object(self, schema: dict[str, Any], out: dict[str, Any], where: str, depth: int, *, root: bool) -> None:
        properties = schema.get("properties")
        extra = schema.get("additionalProperties")
        if extra not in (None, False):
            self.refuse(where, "it takes keys it does not name (additionalProperties); strict mode needs every key declared")
        elif not root and (not isinstance(properties, dict) or (not properties and extra is not False)):
            self.refuse(where, "it is a free-form object; strict mode needs every key declared")
        properties = properties if isinstance(properties, dict) else {}
        required = set(schema.get("required") or [])
        self.properties += len(properties)
        converted = {}
        for name, sub in properties.items():
            place = f"{where}.{name}" if where else name
            inner = self.convert(sub, place, depth + 1)
            if name not in required and _accepts_null(inner):
                # Null is already a value here ("clear it"), so it cannot also stand for "not given".
                self.refuse(place, "it is optional and takes null, so null and absent mean different things; strict mode cannot tell them apart")
            converted[name] = inner if name in required else nullable(inner)
        out["type"] = "object" if "null" not in types_of(out) else ["object", "null"]
        out["properties"] = converted
        out["required"] = list(converted)
        out["additionalProperties"] = False

    def _array(self, schema: dict[str, Any], out: dict[str, Any], where: str, depth: int) -> None:
        items = schema.get("items")
        if isinstance(items, dict):
            out["items"] = self.convert(items, f"{where}[]", depth + 1)
        elif isinstance(items, list):
            self.refuse(where, "it is a tuple (a list of item schemas); strict mode has one schema for all items")
        else:
            self.refuse(where, "its items have no schema")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "..."


def _one_type(kind: str, out: dict[str, Any]) -> dict[str, Any]:
    keep = {"string": ("enum", "pattern", "format"), "number": ("minimum", "maximum", "multipleOf"), "integer": ("minimum", "maximum", "multipleOf"),
            "array": ("items", "minItems", "maxItems"), "object": ("properties", "required", "additionalProperties")}
    return {"type": kind, **{k: out[k] for k in keep.get(kind, ()) if k in out}}


def nullable(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` that also accepts null: how strict mode says a property is optional."""
    if _accepts_null(schema):
        return schema
    if "$ref" in schema or ("anyOf" in schema and "type" not in schema):
        description = {"description": schema["description"]} if "description" in schema else {}
        core = {k: v for k, v in schema.items() if k != "description"}
        branches = core["anyOf"] if set(core) == {"anyOf"} else [core]
        return {"anyOf": [*branches, _NULL], **description}
    out = dict(schema)
    kinds = types_of(schema)
    if kinds:
        out["type"] = [*kinds, "null"]
    if isinstance(out.get("enum"), list):
        out["enum"] = [*out["enum"], None]
    if "const" in out:
        out["enum"] = [out.pop("const"), None]
    return out


def _accepts_null(schema: dict[str, Any]) -> bool:
    if "null" in types_of(schema):
        return "enum" not in schema or None in schema["enum"]
    return any(b == _NULL or (isinstance(b, dict) and "null" in types_of(b)) for b in schema.get("anyOf", []))


def to_strict_schema(schema: dict[str, Any]) -> StrictSchema:
    """``schema`` made strict-compatible, or ``StrictSchema(None, reasons)`` when it cannot be."""
    converter = _Converter(schema)
    if types_of(schema) not in ([], ["object"]) or any(k in schema for k in ("anyOf", "oneOf")):
        return StrictSchema(None, ["the arguments: the root must be a plain object (no union), as strict mode requires"])
    out = converter.convert({**schema, "type": "object"}, "", 0)
    for key in ("$defs", "definitions"):
        if isinstance(schema.get(key), dict):
            out[key] = {n: converter.convert(s, f"{key}.{n}", 1) for n, s in schema[key].items()}
    if converter.properties > MAX_PROPERTIES:
        converter.problems.append(f"the arguments: {converter.properties} properties, over strict mode's {MAX_PROPERTIES}")
    if converter.deepest > MAX_DEPTH:
        converter.problems.append(f"the arguments: nested {converter.deepest} levels deep, over strict mode's {MAX_DEPTH}")
    if converter.enum_values > MAX_ENUM_VALUES:
        converter.problems.append(f"the arguments: {converter.enum_values} enum values, over strict mode's {MAX_ENUM_VALUES}")
    if converter.problems:
        return StrictSchema(None, converter.problems)
    return StrictSchema(out)
