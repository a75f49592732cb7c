"""Following local JSON Schema references (``#/$defs/entity``) inside one document.

The schema checker, help, the Gemini export and the explorer's form builder
all need the same small thing, so it lives here once.
"""

from __future__ import annotations

from typing import Any

MISSING: Any = object()


def resolve_local_ref(document: Any, ref: str) -> Any:
    """The value ``ref`` points at inside ``document``, or :data:`MISSING`.

    Only local pointers are followed (``#`` and ``#/...``, with ``~0``/``~1``
    escapes and list indices); anything else, anchors included, is
    :data:`MISSING`.
    """
    if ref == "#":
        return document
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return MISSING
    node = document
    for raw in ref[2:].split("/"):
        part = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
            node = node[int(part)]
        else:
            return MISSING
    return node


def resolve_local_schema(document: Any, ref: str) -> dict[str, Any] | None:
    """Like :func:`resolve_local_ref`, but only a schema object counts as found."""
    target = resolve_local_ref(document, ref)
    return target if isinstance(target, dict) else None
