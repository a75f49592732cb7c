"""OpenAPI schema objects as JSON Schema 2020-12, with local references inlined.

OpenAPI 3.0 schemas are a dialect: ``nullable``, boolean
``exclusiveMinimum``, a single ``example``. 3.1 schemas are JSON Schema
already. Either way, component references are inlined so that every op's
arguments are one self-contained schema that providers without ``$ref``
support (Gemini) can take; a recursive schema keeps one ``$ref`` into the
root's ``$defs`` where it loops. Every schema converted here describes what
the caller sends, so ``readOnly`` properties (answers only) are left out.
"""

from __future__ import annotations

import re
from typing import Any

from ._document import OpenApiDocument

# Keys that carry schemas, and keys of maps whose values are schemas.
_SCHEMA_KEYS = ("items", "additionalProperties", "not", "contains", "propertyNames", "if", "then", "else", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_LIST_KEYS = ("allOf", "anyOf", "oneOf", "prefixItems")
_SCHEMA_MAP_KEYS = ("properties", "patternProperties", "dependentSchemas")
# OpenAPI-only keywords with no meaning for argument validation.
_DROPPED = ("discriminator", "xml", "externalDocs", "example", "nullable")


def _def_name(ref: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]", "_", ref.rsplit("/", 1)[-1]) or "schema"


class SchemaConverter:
    """Converts the schemas of one document; ``defs`` collects the definitions that recursion needs."""

    def __init__(self, document: OpenApiDocument):
        self.document = document
        self.defs: dict[str, Any] = {}

    def convert(self, schema: Any, _stack: tuple[str, ...] = ()) -> Any:
        if isinstance(schema, bool):
            return schema
        if not isinstance(schema, dict):
            return {}
        ref = schema.get("$ref")
        if isinstance(ref, str):
            if ref in _stack:
                name = _def_name(ref)
                if name not in self.defs:
                    self.defs[name] = {}  # placeholder: stops the definition from recursing into itself
                    self.defs[name] = self.convert(self.document.deref(schema), ())
                return {"$ref": f"#/$defs/{name}"}
            target = self.document.deref(schema)
            siblings = {k: v for k, v in schema.items() if k != "$ref"}  # 3.1 allows description next to $ref
            converted = self.convert(target, (*_stack, ref))
            if siblings and isinstance(converted, dict):
                converted = {**converted, **self.convert(siblings, _stack)}
            return converted
        return self._convert_object(schema, _stack)

    def _convert_object(self, schema: dict[str, Any], stack: tuple[str, ...]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in schema.items():
            if key.startswith("x-") or key in _DROPPED:
                continue
            if key in _SCHEMA_KEYS:
                out[key] = self.convert(value, stack)
            elif key in _SCHEMA_LIST_KEYS and isinstance(value, list):
                out[key] = [self.convert(v, stack) for v in value]
            elif key in _SCHEMA_MAP_KEYS and isinstance(value, dict):
                out[key] = {name: self.convert(v, stack) for name, v in value.items()}
            else:
                out[key] = value
        if not self.document.is_31:
            _from_openapi_30(schema, out)
        _without_read_only(out)
        return out


def _without_read_only(out: dict[str, Any]) -> None:
    """Drop the properties only answers carry: every schema converted here is one the caller sends.

    OpenAPI: a ``readOnly`` property SHOULD NOT be sent, and its ``required``
    holds for responses only; asking for it made a create op demand the id
    the server is meant to give.
    """
    properties = out.get("properties")
    if not isinstance(properties, dict):
        return
    read_only = [name for name, sub in properties.items() if isinstance(sub, dict) and sub.get("readOnly") is True]
    if not read_only:
        return
    out["properties"] = {name: sub for name, sub in properties.items() if name not in read_only}
    if isinstance(out.get("required"), list):
        out["required"] = [name for name in out["required"] if name not in read_only]
        if not out["required"]:
            del out["required"]


def _from_openapi_30(original: dict[str, Any], out: dict[str, Any]) -> None:
    """Rewrite the 3.0 dialect's keywords into their JSON Schema meaning."""
    if "example" in original and "examples" not in out:
        out["examples"] = [original["example"]]
    if original.get("nullable") is True:
        kind = out.get("type")
        if isinstance(kind, str):
            out["type"] = [kind, "null"]
        if isinstance(out.get("enum"), list) and None not in out["enum"]:
            out["enum"] = [*out["enum"], None]
    for bound, flag in (("minimum", "exclusiveMinimum"), ("maximum", "exclusiveMaximum")):
        if isinstance(out.get(flag), bool):
            if out.pop(flag) and bound in out:
                out[flag] = out.pop(bound)
