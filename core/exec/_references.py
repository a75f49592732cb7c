"""Step references in a batch: ``"$0.result.documents[0].id"`` is replaced by that value.

A string argument that is exactly a reference is replaced by the value it
points at (any JSON type). References may only point at earlier steps.
"""

from __future__ import annotations

import re
from typing import Any

REFERENCE = re.compile(r"^\$(\d+)((?:\.[A-Za-z_][A-Za-z0-9_\-]*|\[\d+\])*)$")
_PART = re.compile(r"\.([A-Za-z_][A-Za-z0-9_\-]*)|\[(\d+)\]")


class UnresolvedReference(Exception):
    def __init__(self, reference: str, reason: str):
        super().__init__(f"{reference}: {reason}")
        self.reference = reference
        self.reason = reason


def _children(value: Any) -> list[tuple[Any, Any]]:
    if isinstance(value, dict):
        return list(value.items())
    if isinstance(value, list):
        return list(enumerate(value))
    return []


def references_in(value: Any) -> set[int]:
    """The step numbers a value refers to (walked with a stack: arguments may nest deeply)."""
    found: set[int] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            match = REFERENCE.match(node)
            if match:
                found.add(int(match.group(1)))
        else:
            stack.extend(child for _, child in _children(node))
    return found


def _lookup(reference: str, envelopes: dict[int, dict[str, Any]]) -> Any:
    match = REFERENCE.match(reference)
    assert match is not None
    step = int(match.group(1))
    if step not in envelopes:
        raise UnresolvedReference(reference, f"step {step} has not run before this one (references point at earlier steps)")
    node: Any = envelopes[step]
    if not node.get("ok"):
        raise UnresolvedReference(reference, f"step {step} failed, so it has no result")
    walked = f"${step}"
    for name, index in _PART.findall(match.group(2)):
        if name:
            if not isinstance(node, dict) or name not in node:
                raise UnresolvedReference(reference, f"{walked} has no key {name!r}")
            node = node[name]
            walked += f".{name}"
        else:
            position = int(index)
            if not isinstance(node, list) or position >= len(node):
                size = len(node) if isinstance(node, list) else "no"
                cut = _cut_at(envelopes[step], walked.partition(".")[2])
                if cut is not None and isinstance(node, list):
                    raise UnresolvedReference(reference, f"{walked} was cut to fit the answer ({len(node)} of its {cut.get('total', '?')} items shown), so [{position}] is not in it; narrow step {step} (a filter, limit/offset) so that the item is")
                raise UnresolvedReference(reference, f"{walked} has {size} items, so [{position}] does not exist")
            node = node[position]
            walked += f"[{position}]"
    cut = _cut_within(envelopes[step], walked.partition(".")[2])
    if cut is not None:
        # The value was cut to fit step's answer: passing the cut copy on (a text with a marker, half a list) would write it.
        raise UnresolvedReference(reference, f"{walked} holds a part cut to fit step {step}'s answer ({cut['path']}, see its meta.truncated), so it is not passed on; ask step {step} for less (a narrower query, max_chars, a page) or refer to a smaller part")
    return node


def _cuts(envelope: dict[str, Any]) -> list[dict[str, Any]]:
    meta = envelope.get("meta")
    cuts = meta.get("truncated") if isinstance(meta, dict) else None
    return [c for c in cuts if isinstance(c, dict) and isinstance(c.get("path"), str)] if isinstance(cuts, list) else []


def _cut_at(envelope: dict[str, Any], path: str) -> dict[str, Any] | None:
    return next((c for c in _cuts(envelope) if c["path"] == path), None)


def _cut_within(envelope: dict[str, Any], path: str) -> dict[str, Any] | None:
    """The first cut at ``path`` or inside it (``result.tasks`` holds ``result.tasks[3].title``)."""
    return next((c for c in _cuts(envelope) if c["path"] == path or c["path"].startswith((path + ".", path + "["))), None)


def resolve_references(value: Any, envelopes: dict[int, dict[str, Any]]) -> Any:
    """A copy of ``value`` with every reference replaced by what it points at (built with a stack, not recursion)."""
    root: list[Any] = [None]
    stack: list[tuple[Any, Any, Any]] = [(value, root, 0)]
    while stack:
        node, parent, key = stack.pop()
        if isinstance(node, str) and REFERENCE.match(node):
            parent[key] = _lookup(node, envelopes)
        elif isinstance(node, (dict, list)):
            fresh: Any = {} if isinstance(node, dict) else [None] * len(node)
            parent[key] = fresh
            # Reversed onto the stack, so that objects keep their key order.
            stack.extend((child, fresh, name) for name, child in reversed(_children(node)))
        else:
            parent[key] = node
    return root[0]
