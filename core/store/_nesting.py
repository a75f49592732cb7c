"""How deeply JSON values may nest, checked and cut without recursion.

Deep values break things far from where they were written: Python's
recursion limit (a 500-level ``props`` made ``copy.deepcopy`` fail inside a
write), and JSON parsers that stop near 128 levels (the MCP SDK's client
refused to read a 400-level value back). So values stored in JSON columns
nest at most :data:`MAX_VALUE_DEPTH` levels, writes deeper than that are
refused with the path to the first level too many, and values that were
stored deeper before this rule existed are read back cut, with
:data:`CUT_MARKER` where the cut levels were.
"""

from __future__ import annotations

import json
from typing import Any

from .. import safe_json

MAX_VALUE_DEPTH = 32
"""Levels of objects and arrays a stored JSON value may have (the value itself is level 1)."""

MAX_ARGUMENT_DEPTH = safe_json.MAX_DEPTH
"""Levels the arguments of one call may have: the one limit for every JSON that comes in."""

CUT_MARKER = f"[opgate: nested deeper than {MAX_VALUE_DEPTH} levels; this part is not shown]"
"""What stands where a stored value was cut on reading. Writing it back is refused, so a cut never saves silently."""

Path = tuple[str | int, ...]


def _items(node: Any) -> list[tuple[str | int, Any]]:
    if isinstance(node, dict):
        return list(node.items())
    if isinstance(node, list):
        return list(enumerate(node))
    return []


def too_deep(value: Any, limit: int = MAX_VALUE_DEPTH) -> Path | None:
    """The path to the first object or array below ``limit`` levels of nesting, or ``None``."""
    stack: list[tuple[Any, int, Path]] = [(value, 1, ())]
    while stack:
        node, level, path = stack.pop()
        if not isinstance(node, (dict, list)):
            continue
        if level > limit:
            return path
        stack.extend((child, level + 1, (*path, key)) for key, child in reversed(_items(node)))
    return None


def cut_marker_at(value: Any) -> Path | None:
    """The path to a :data:`CUT_MARKER` inside ``value`` (a cut value being written back), or ``None``."""
    stack: list[tuple[Any, Path]] = [(value, ())]
    while stack:
        node, path = stack.pop()
        if node == CUT_MARKER:
            return path
        stack.extend((child, (*path, key)) for key, child in _items(node))
    return None


def cut_deeper_than(value: Any, limit: int = MAX_VALUE_DEPTH) -> Any:
    """``value`` with every object or array below ``limit`` levels replaced by :data:`CUT_MARKER`.

    Returns ``value`` itself when nothing is that deep.
    """
    if too_deep(value, limit) is None:
        return value
    copy: list[Any] = [None]
    stack: list[tuple[Any, int, Any, Any]] = [(value, 1, copy, 0)]
    while stack:
        node, level, parent, key = stack.pop()
        if not isinstance(node, (dict, list)):
            parent[key] = node
        elif level > limit:
            parent[key] = CUT_MARKER
        else:
            fresh: Any = {} if isinstance(node, dict) else [None] * len(node)
            parent[key] = fresh
            # Reversed onto the stack, so that objects keep their key order.
            stack.extend((child, level + 1, fresh, k) for k, child in reversed(_items(node)))
    return copy[0]


_SCAN = json.JSONDecoder().scan_once
"""The C scanner under ``json.loads``: a stored value is the text's only value, so the checks around it are left for text that is not."""


def _loads(text: str) -> Any:
    """``json.loads(text)``: the scanner straight on text that is one value from its first character to its last.

    ``json.loads`` adds three Python calls, a regex for leading and trailing
    space and a type check around the scan: more than the scan of a small
    ``props``. Anything else (space around the value, more than one value,
    not JSON, bytes) is left to ``json.loads``, so the value or the error is
    exactly its.
    """
    if type(text) is str:
        try:
            value, end = _SCAN(text, 0)
        except StopIteration:
            pass
        else:
            if end == len(text):
                return value
    return json.loads(text)


def load_bounded(text: str, limit: int = MAX_VALUE_DEPTH) -> Any:
    """``json.loads(text)``, cut below ``limit`` levels; a value too deep to parse at all becomes the marker."""
    if text.count("{") + text.count("[") <= limit:
        return _loads(text)  # too few brackets to be too deep: the common case costs two counts
    try:
        value = json.loads(text)
    except RecursionError:
        return {"_cut": CUT_MARKER}
    return cut_deeper_than(value, limit)


def dotted(path: Path, head: str = "") -> str:
    """``props.a[2].b``: a path as a person reads it (long ones shortened in the middle)."""
    parts = [f"[{p}]" if isinstance(p, int) else f".{p}" for p in path]
    if len(parts) > 12:
        parts = [*parts[:5], f".…({len(parts) - 10} more levels)…", *parts[-5:]]
    return (head + "".join(parts)).lstrip(".")
