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
