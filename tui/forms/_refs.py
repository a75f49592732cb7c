"""Local ``$ref`` resolution for parameter schemas: ``#/$defs/x`` and ``#/definitions/x``.

Remote references are never fetched (the validator refuses them too); a ref
that cannot be resolved leaves the schema as it is, and the form falls back
to a raw JSON field for it.
"""

from __future__ import annotations

from typing import Any


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def lookup(ref: str, root: dict[str, Any]) -> dict[str, Any] | None:
    """The schema a local JSON pointer ``ref`` names inside ``root``, or ``None``."""
    if ref == "#":
        return root
    if not ref.startswith("#/"):
        return None
    node: Any = root
    for part in ref[2:].split("/"):
        part = _unescape(part)
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return None
    return node if isinstance(node, dict) else None


def resolve(schema: Any, root: dict[str, Any], seen: frozenset[str] = frozenset()) -> tuple[dict[str, Any], frozenset[str]]:
    """``schema`` with its ``$ref`` chain followed; sibling keywords override the target's.

    Returns the merged schema and the refs followed so far, so that a caller
    walking a recursive schema can stop when a ref comes round again.
    """
    if not isinstance(schema, dict):
        return {}, seen
    while isinstance(schema.get("$ref"), str):
        ref = schema["$ref"]
        target = lookup(ref, root)
        if target is None or ref in seen:
            return schema, seen
        seen = seen | {ref}
        schema = {**target, **{k: v for k, v in schema.items() if k != "$ref"}}
    return schema, seen
