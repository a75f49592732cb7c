"""Shaping results for a model: the entities touched, and a bound on size.

A long result keeps its shape: the longest lists are cut first (with a marker
saying how many items were left out and how to get them), then the longest
strings. ``meta.truncated`` says what was cut.
"""

from __future__ import annotations

import json
from typing import Any

MAX_ENTITIES = 50


def _names_an_id(key: str) -> bool:
    return key in ("id", "_entities_accessed") or key.endswith("_id") or (key.endswith("Id") and len(key) > 2)


def _id_text(value: Any) -> str | None:
    if isinstance(value, str):
        return value if value.strip() else None
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)  # upstream APIs number their rows
    return None


def entities_touched(result: Any, diff: dict[str, Any] | None = None) -> list[str]:
    """Ids the call touched, in first-seen order: from ``id``, ``*_id`` and ``*Id`` fields and
    from ``_entities_accessed`` lists in the result, then from the diff.

    Any non-empty string or integer counts, not only UUIDs: ops of other
    catalogues name their entities as their APIs do. The walk uses a stack,
    so a deeply nested result cannot exhaust the recursion limit.
    """
    seen: dict[str, None] = {}
    stack: list[tuple[Any, str]] = [(diff, ""), (result, "")] if diff else [(result, "")]
    while stack and len(seen) < MAX_ENTITIES:
        node, key = stack.pop()
        if isinstance(node, dict):
            stack.extend((value, name) for name, value in reversed(list(node.items())) if isinstance(name, str))
        elif isinstance(node, list):
            stack.extend((item, key) for item in reversed(node))
        elif _names_an_id(key) and (text := _id_text(node)) is not None:
            seen.setdefault(text, None)
    return list(seen)[:MAX_ENTITIES]


def _size(value: Any) -> int:
    return len(json.dumps(value, ensure_ascii=False, default=str))


def _longest_list(node: Any, path: tuple = ()) -> tuple[tuple, list] | None:
    best: tuple[tuple, list] | None = None
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    if isinstance(node, list) and len(node) > 1:
        best = (path, node)
    for key, value in children:
        found = _longest_list(value, (*path, key))
        if found and (best is None or _size(found[1]) > _size(best[1])):
            best = found
    return best


def _longest_string(node: Any, path: tuple = ()) -> tuple[tuple, str] | None:
    if isinstance(node, str):
        return (path, node)
    best = None
    children = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in children:
        found = _longest_string(value, (*path, key))
        if found and (best is None or len(found[1]) > len(best[1])):
            best = found
    return best


def _set(node: Any, path: tuple, value: Any) -> None:
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value


def _dotted(path: tuple) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".") or "result"


def bound_result(result: Any, limit: int) -> tuple[Any, list[dict[str, Any]]]:
    """The result cut down to about ``limit`` characters of JSON, and what was cut."""
    if _size(result) <= limit or not isinstance(result, (dict, list)):
        return result, []
    result = json.loads(json.dumps(result, default=str))
    cuts: list[dict[str, Any]] = []
    for _ in range(64):
        if _size(result) <= limit:
            break
        found = _longest_list(result)
        if found and len(found[1]) > 1:
            path, items = found
            keep = max(1, len(items) // 2)
            _set(result, path, items[:keep]) if path else result.__setitem__(slice(keep, None), [])
            cut = next((c for c in cuts if c["path"] == _dotted(path)), None)
            if cut is None:
                cuts.append({"path": _dotted(path), "kind": "list", "total": len(items), "shown": keep})
            else:
                cut["shown"] = keep
            continue
        found_text = _longest_string(result)
        if not found_text or len(found_text[1]) < 200:
            break
        path, text = found_text
        keep = len(text) // 2
        _set(result, path, text[:keep] + f" …[truncated: {len(text) - keep} more characters]")
        cuts.append({"path": _dotted(path), "kind": "text", "total_chars": len(text), "shown_chars": keep})
    for cut in cuts:
        if cut["kind"] == "list":
            cut["how_to_get_more"] = "narrow the call, or page with limit/offset where the op has them"
        else:
            cut["how_to_get_more"] = "ask for less (max_chars, a narrower query) or read the item on its own"
    return result, cuts
