"""What the schema converters share: merging ``allOf``, and saying in words what a format cannot hold.

A provider's schema dialect may lack a keyword that only restricts values
(``multipleOf``, ``uniqueItems``, ``not``...). Dropping it silently would
hide the rule from the model; the converters move it into the description
instead, and exec still enforces it, since exec validates against the op's
own schema.
"""

from __future__ import annotations

import json
from typing import Any

# Keywords that describe rather than constrain, or are vendor extensions: no converter needs them.
ANNOTATION_KEYWORDS = frozenset({
    "$schema", "$id", "$comment", "$anchor", "$dynamicAnchor", "readOnly", "writeOnly",
    "contentMediaType", "contentEncoding", "deprecated", "shortDescription", "ignoreFormat", "isIEnum",
})


def is_annotation(keyword: str) -> bool:
    return keyword in ANNOTATION_KEYWORDS or keyword.startswith("x-")


def _phrase(keyword: str, value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return f"{keyword} {text if len(text) <= 80 else text[:77] + '...'}"


def with_note(schema: dict[str, Any], rules: dict[str, Any], sentences: list[str] | None = None) -> dict[str, Any]:
    """``schema`` with ``rules`` (keyword -> value) and ``sentences`` appended to its description.

    ``{"multipleOf": 5}`` reads ``Rules: multipleOf 5.``
    """
    parts = list(sentences or [])
    if rules:
        parts.append("Rules: " + "; ".join(_phrase(k, v) for k, v in sorted(rules.items())) + ".")
    if not parts:
        return schema
    note = " ".join(parts)
    description = schema.get("description")
    return {**schema, "description": f"{description} {note}" if description else note}


def merge_all_of(schema: dict[str, Any]) -> dict[str, Any] | None:
    """``schema`` with its ``allOf`` branches folded in, or ``None`` when two branches disagree on a keyword.

    Objects merge their properties and required lists, which is what allOf
    means for them; any other keyword must agree across branches to merge.
    """
    merged = {k: v for k, v in schema.items() if k != "allOf"}
    for raw in schema.get("allOf") or []:
        branch = merge_all_of(raw) if isinstance(raw, dict) and "allOf" in raw else raw
        if not isinstance(branch, dict):
            return None
        for key, value in branch.items():
            if key == "properties" and isinstance(value, dict):
                merged["properties"] = {**merged.get("properties", {}), **value}
            elif key == "required" and isinstance(value, list):
                merged["required"] = list(dict.fromkeys([*merged.get("required", []), *value]))
            elif key == "description" and "description" in merged:
                continue
            elif key in merged and merged[key] != value:
                return None
            else:
                merged[key] = value
    return merged


def types_of(schema: dict[str, Any]) -> list[str]:
    """The ``type`` keyword as a list (empty when absent)."""
    kind = schema.get("type")
    if isinstance(kind, str):
        return [kind]
    return [k for k in kind if isinstance(k, str)] if isinstance(kind, list) else []


def branches_are_disjoint(branches: list[dict[str, Any]]) -> bool:
    """True when no value can match two branches (each has its own type, or its own constant), so anyOf means oneOf."""
    kinds = [types_of(b) for b in branches]
    if all(len(k) == 1 for k in kinds) and len({k[0] for k in kinds}) == len(kinds):
        return True
    constants = [json.dumps(b["const"], sort_keys=True) for b in branches if "const" in b]
    return len(constants) == len(branches) and len(set(constants)) == len(constants)
