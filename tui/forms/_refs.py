"""Local ``$ref`` resolution for parameter schemas: ``#/$defs/x`` and ``#/definitions/x``.

Remote references are never fetched (the validator refuses them too); a ref
that cannot be resolved leaves the schema as it is, and the form falls back
to a raw JSON field for it.
"""

from __future__ import annotations

from typing import Any

from opgate.core.jsonpointer import resolve_local_schema


def lookup(ref: str, root: dict[str, Any]) -> dict[str, Any] | None:
    """The schema a local JSON pointer ``ref`` names inside ``root``, or ``None``."""
    return resolve_local_schema(root, ref)


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
