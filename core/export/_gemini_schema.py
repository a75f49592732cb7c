"""JSON Schema to the OpenAPI subset Gemini's function declarations accept.

Gemini rejects ``additionalProperties``, ``$ref``/``$defs`` and type lists, so
local references are inlined (to a bounded depth, for recursive schemas),
``["string", "null"]`` becomes ``nullable``, ``const`` a one-value enum, and
``oneOf`` the ``anyOf`` it understands.
"""

from __future__ import annotations

from typing import Any

from ..jsonpointer import resolve_local_schema

_KEEP = {
    "type", "format", "description", "nullable", "enum", "properties", "required", "items",
    "minItems", "maxItems", "minimum", "maximum", "anyOf", "minLength", "maxLength", "pattern",
    "default", "title", "minProperties", "maxProperties",
}
_MAX_REF_DEPTH = 4
_GEMINI_FORMATS = {"date-time", "enum", "int32", "int64", "float", "double"}


def to_gemini_schema(schema: dict[str, Any], root: dict[str, Any] | None = None, depth: int = 0) -> dict[str, Any]:
    root = root if root is not None else schema
    if isinstance(schema.get("$ref"), str) and schema["$ref"].startswith("#/"):
        target = resolve_local_schema(root, schema["$ref"]) if depth < _MAX_REF_DEPTH else None
        merged = {**(target or {"type": "object"}), **{k: v for k, v in schema.items() if k != "$ref"}}
        return to_gemini_schema(merged, root, depth + 1)
    out: dict[str, Any] = {}
    for key, value in schema.items():
        if key == "type" and isinstance(value, list):
            kinds = [k for k in value if k != "null"]
            out["type"] = kinds[0] if kinds else "string"
            if "null" in value:
                out["nullable"] = True
        elif key == "const":
            out["enum"] = [value]
        elif key in ("oneOf", "anyOf") and isinstance(value, list):
            out["anyOf"] = [to_gemini_schema(s, root, depth) for s in value if isinstance(s, dict)]
        elif key == "properties" and isinstance(value, dict):
            out["properties"] = {n: to_gemini_schema(s, root, depth) for n, s in value.items() if isinstance(s, dict)}
        elif key == "items" and isinstance(value, dict):
            out["items"] = to_gemini_schema(value, root, depth)
        elif key == "format":
            if value in _GEMINI_FORMATS:
                out["format"] = value
        elif key in _KEEP:
            out[key] = value
    if out.get("type") == "array" and "items" not in out:
        out["items"] = {"type": "string"}
    return out
