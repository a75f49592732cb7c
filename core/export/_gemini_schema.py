"""JSON Schema to the OpenAPI-subset ``Schema`` of Gemini's ``FunctionDeclaration.parameters``.

The ``gemini`` export sends the op's JSON Schema unchanged through
``parameters_json_schema``; this conversion is for the ``gemini-openapi``
export, for callers that must fill ``parameters`` instead. It keeps the
meaning wherever google-genai's ``types.Schema`` can hold it:

- ``null`` in ``type`` or ``enum`` becomes ``nullable``; several other types
  become ``anyOf``, one branch per type with that type's keywords;
- ``enum`` values become strings (``Schema.enum`` is a list of strings), with
  ``format: enum`` for numbers as Gemini asks; ``const`` is a one-value enum;
- ``oneOf`` becomes ``anyOf``, the only union Gemini has; when the branches
  could overlap, the description says that exactly one must match;
- ``allOf`` is folded into its parent; ``$ref`` to ``$defs``/``definitions``
  stays a reference (``ref: #/defs/Name`` with root ``defs``); other local
  references are inlined, to a bounded depth;
- ``additionalProperties`` (a boolean or a schema) and ``format`` are kept;
- keywords Schema has no field for (``multipleOf``, ``uniqueItems``, ``not``,
  ``exclusiveMinimum``...) are said in the description, and exec enforces them.
"""

from __future__ import annotations

import json
from typing import Any

from ..jsonpointer import resolve_local_schema
from ._keywords import branches_are_disjoint, is_annotation, merge_all_of, types_of, with_note

# JSON Schema keywords Schema holds under the same meaning (the REST API's camelCase names).
_SAME = frozenset({
    "description", "title", "default", "pattern", "format", "minimum", "maximum", "minLength", "maxLength",
    "minItems", "maxItems", "minProperties", "maxProperties", "nullable", "example", "propertyOrdering",
})
# Which keywords go with which type when a type list is split into anyOf branches.
_TYPE_KEYWORDS = {
    "string": ("enum", "format", "pattern", "minLength", "maxLength"),
    "number": ("enum", "format", "minimum", "maximum"),
    "integer": ("enum", "format", "minimum", "maximum"),
    "array": ("items", "minItems", "maxItems"),
    "object": ("properties", "required", "additionalProperties", "minProperties", "maxProperties"),
}
_DEF_PREFIXES = ("#/$defs/", "#/definitions/")
_MAX_INLINE_DEPTH = 4
_EXACTLY_ONE = "Exactly one of the alternatives must match."


def _enum_text(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value)


class _Converter:
    def __init__(self, root: dict[str, Any]):
        self.root = root

    def convert(self, schema: Any, depth: int = 0) -> dict[str, Any]:
        if not isinstance(schema, dict):
            return {} if schema is True or schema is None else {"description": "No value is allowed here."}
        if "allOf" in schema:
            merged = merge_all_of(schema)
            if merged is not None:
                return self.convert(merged, depth)
        ref = schema.get("$ref")
        if isinstance(ref, str):
            return self._reference(schema, ref, depth)
        out: dict[str, Any] = {}
        rules: dict[str, Any] = {}
        for key, value in schema.items():
            self._keyword(key, value, out, rules, depth)
        self._finish_types(schema, out)
        if out.get("type") == "array" and "items" not in out:
            out["items"] = {"type": "string"}  # Gemini refuses an array without items
        overlapping = isinstance(schema.get("oneOf"), list) and "anyOf" not in schema and not branches_are_disjoint([b for b in schema["oneOf"] if isinstance(b, dict)])
        return with_note(out, rules, [_EXACTLY_ONE] if overlapping else None)

    def _reference(self, schema: dict[str, Any], ref: str, depth: int) -> dict[str, Any]:
        siblings = {k: v for k, v in schema.items() if k != "$ref"}
        for prefix in _DEF_PREFIXES:
            if ref.startswith(prefix) and resolve_local_schema(self.root, ref) is not None and set(siblings) <= {"description"}:
                return {"ref": "#/defs/" + ref[len(prefix):], **siblings}
        target = resolve_local_schema(self.root, ref) if depth < _MAX_INLINE_DEPTH else None
        if target is None:
            return with_note(self.convert(siblings, depth), {"$ref": ref})
        return self.convert({**target, **siblings}, depth + 1)

    def _keyword(self, key: str, value: Any, out: dict[str, Any], rules: dict[str, Any], depth: int) -> None:
        if key in ("type", "$defs", "definitions") or is_annotation(key):
            return
        if key == "enum" and isinstance(value, list):
            if None in value:
                out["nullable"] = True
            out["enum"] = [_enum_text(v) for v in value if v is not None]
        elif key == "const":
            out["enum"] = [_enum_text(value)] if value is not None else []
            if value is None:
                out["nullable"] = True
        elif key in ("anyOf", "oneOf") and isinstance(value, list):
            branches = [b for b in value if isinstance(b, dict)]
            if "anyOf" in out:  # both present: the second union can only be said in words
                rules[key] = value
                return
            out["anyOf"] = [self.convert(b, depth) for b in branches]
        elif key == "properties" and isinstance(value, dict):
            out["properties"] = {n: self.convert(s, depth) for n, s in value.items()}
        elif key == "items":
            if isinstance(value, list):  # an old-style tuple: any of its item schemas
                out["items"] = {"anyOf": [self.convert(s, depth) for s in value]}
                rules["items"] = "in this order"
            else:
                out["items"] = self.convert(value, depth)
        elif key == "additionalProperties":
            out["additionalProperties"] = value if isinstance(value, bool) else self.convert(value, depth)
        elif key == "required" and isinstance(value, list):
            out["required"] = [str(v) for v in value]
        elif key == "examples" and isinstance(value, list) and value:
            out.setdefault("example", value[0])
        elif key in _SAME:
            out[key] = value
        else:
            rules[key] = value

    def _finish_types(self, schema: dict[str, Any], out: dict[str, Any]) -> None:
        kinds = types_of(schema)
        if "null" in kinds:
            out["nullable"] = True
        concrete = [k for k in kinds if k != "null"]
        if not concrete:
            if kinds:
                out["type"] = "null"
            elif "properties" in out:
                out["type"] = "object"
            return
        if len(concrete) == 1:
            out["type"] = concrete[0]
        else:
            out["anyOf"] = [self._branch(kind, out) for kind in concrete]
            for keyword in {k for kind in concrete for k in _TYPE_KEYWORDS.get(kind, ())}:
                out.pop(keyword, None)
        if out.get("enum") and out.get("type") in ("integer", "number"):
            out["format"] = "enum"

    @staticmethod
    def _branch(kind: str, out: dict[str, Any]) -> dict[str, Any]:
        branch = {"type": kind, **{k: out[k] for k in _TYPE_KEYWORDS.get(kind, ()) if k in out}}
        if kind == "array" and "items" not in branch:
            branch["items"] = {"type": "string"}
        return branch


def to_gemini_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (an op's parameters) as a Gemini ``Schema`` dict, definitions in root ``defs``."""
    converter = _Converter(schema)
    out = converter.convert(schema)
    definitions = {**(schema.get("definitions") or {}), **(schema.get("$defs") or {})}
    if definitions:
        out["defs"] = {name: converter.convert(sub) for name, sub in definitions.items()}
    out.setdefault("type", "object")
    return out
