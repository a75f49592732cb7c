"""Reading a parameters schema into the ``args`` table and the ``usage`` line of help."""

from __future__ import annotations

from typing import Any

from ..jsonpointer import resolve_local_schema
from ..registry._record import OpRecord

ENUM_INLINE_LIMIT = 6


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    ref = schema.get("$ref")
    target = resolve_local_schema(root, ref) if isinstance(ref, str) else None
    if target is not None:
        return {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema


def type_label(schema: dict[str, Any], root: dict[str, Any]) -> str:
    """A short type: ``string``, ``integer``, ``array<object>``, ``string|null``, ``uuid``."""
    schema = _resolve(schema, root)
    if "enum" in schema:
        return "enum"
    for combiner in ("oneOf", "anyOf"):
        if isinstance(schema.get(combiner), list):
            return "|".join(sorted({type_label(s, root) for s in schema[combiner] if isinstance(s, dict)})) or "any"
    kind = schema.get("type")
    if isinstance(kind, list):
        return "|".join(str(k) for k in kind)
    if kind == "array":
        items = schema.get("items")
        return f"array<{type_label(items, root)}>" if isinstance(items, dict) and items else "array"
    if kind == "string" and isinstance(schema.get("format"), str):
        return schema["format"]
    return str(kind) if kind else "any"


# An argument of several object shapes lists at most this many, each naming at most SHAPE_NAMES of its fields.
SHAPES_LIMIT = 8
SHAPE_NAMES = 6


def _tag(schema: dict[str, Any]) -> tuple[str, Any] | None:
    """The property (and its one allowed value) that tells a shape apart: ``("kind", "card")``; None when none does."""
    for name, prop in (schema.get("properties") or {}).items():
        if isinstance(prop, dict):
            value = prop["const"] if "const" in prop else prop["enum"][0] if isinstance(prop.get("enum"), list) and len(prop["enum"]) == 1 else None
            if isinstance(value, (str, int)) and not isinstance(value, bool):
                return name, value
    return None


def object_shapes(schema: dict[str, Any], root: dict[str, Any]) -> list[str]:
    """The object variants of a oneOf/anyOf in a line each: ``kind=card: needs number, expiry``.

    Compact help gives an argument a type only; for one of several shapes
    that said "object" and left a caller to guess which fields each needs.
    Empty unless some variant is an object with fields (``string|null`` needs no list).
    """
    variants = next((schema[c] for c in ("oneOf", "anyOf") if isinstance(schema.get(c), list)), None)
    if not variants:
        return []
    resolved = [_resolve(v, root) for v in variants if isinstance(v, dict)]
    if not any(v.get("properties") or v.get("required") for v in resolved):
        return []
    lines = []
    for variant in resolved[:SHAPES_LIMIT]:
        tag = _tag(variant)
        needed = [str(n) for n in variant.get("required") or [] if tag is None or n != tag[0]]
        fields = ", ".join(needed[:SHAPE_NAMES]) + (", …" if len(needed) > SHAPE_NAMES else "")
        words = f"needs {fields}" if fields else "no field required"
        lines.append(f"{tag[0]}={tag[1]}: {words}" if tag else f"{type_label(variant, root)}: {words}")
    if len(resolved) > SHAPES_LIMIT:
        lines.append(f"{len(resolved) - SHAPES_LIMIT} more shapes: the schema lists them")
    return lines


def describe_args(parameters: dict[str, Any], *, description_limit: int | None) -> list[dict[str, Any]]:
    """One row per top-level argument: required ones first, then the rest in schema order."""
    properties = parameters.get("properties") or {}
    required = set(parameters.get("required") or [])
    rows = []
    for name, raw in properties.items():
        schema = _resolve(raw, parameters) if isinstance(raw, dict) else {}
        row: dict[str, Any] = {"name": name, "type": type_label(schema, parameters), "required": name in required}
        for key in ("default", "enum", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
            if key in schema and not (key == "format" and row["type"] == schema[key]):
                row[key] = schema[key]
        shapes = object_shapes(schema, parameters)
        if shapes:
            row["shapes"] = shapes
        description = (schema.get("description") or "").strip()
        if description:
            if description_limit and len(description) > description_limit:
                description = description[: description_limit - 1].rstrip() + "…"
            row["description"] = description
        rows.append(row)
    rows.sort(key=lambda r: not r["required"])
    return rows


def _placeholder(row: dict[str, Any]) -> str:
    enum = row.get("enum")
    if isinstance(enum, list) and 0 < len(enum) <= ENUM_INLINE_LIMIT:
        return "|".join(str(v) for v in enum)
    return f"<{row['type']}>"


def usage_line(record: OpRecord) -> str:
    """CLI-like: ``onto.task.update task_id=<uuid> [state_key=todo|in_progress|blocked|done]``."""
    parts = [record.op]
    for row in describe_args(record.parameters, description_limit=0):
        token = f"{row['name']}={_placeholder(row)}"
        parts.append(token if row["required"] else f"[{token}]")
    return " ".join(parts)
