"""Shaping results for a model: the entities touched, and a bound on size.

A long result keeps its shape: the longest lists are cut first (with a marker
saying how many items were left out and how to get them), then the longest
strings. ``meta.truncated`` says what was cut.
"""

from __future__ import annotations

import json
import re
from typing import Any

_UUID = re.compile(r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$")
MAX_ENTITIES = 50


def entities_touched(result: Any, diff: dict[str, Any] | None = None) -> list[str]:
    """Ids found in ``id`` and ``*_id`` fields of the result and in the diff, in first-seen order."""
    seen: dict[str, None] = {}
    if not _collect_ids(result, "", seen) and diff:
        _collect_ids(diff, "", seen)
    return list(seen)


def _collect_ids(node: Any, key: str, seen: dict[str, None]) -> bool:
    """Add the ids under ``node`` to ``seen``; True once it holds MAX_ENTITIES, when the walk stops.

    Leaves are handled in the loop rather than by a call each, and an id
    already seen skips the pattern: a list of 50 rows repeats its project_id 50 times.
    """
    items = node.items() if isinstance(node, dict) else ((key, item) for item in node) if isinstance(node, list) else ()
    for name, value in items:
        if isinstance(value, str):
            if value not in seen and (name == "id" or name.endswith("_id")) and _UUID.match(value):
                seen[value] = None
                if len(seen) >= MAX_ENTITIES:
                    return True
        elif isinstance(value, (dict, list)) and _collect_ids(value, name, seen):
            return True
    return False


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
