"""A nested view of a stored tree, built without recursion and cut at a depth.

Stored trees can be as deep as their users make them (a chain of 500
documents is one click-loop away); answers cannot. Python's recursion limit
breaks a recursive walk near 500 levels, and JSON parsers stop even sooner
(the MCP SDK's client gives up near 128 levels of nesting). So every walk
here uses an explicit stack, and a node at the cut says how much is below it
and which call shows it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Row = dict[str, Any]


def kept_children(roots: list[Row], keep: Callable[[Row], bool]) -> tuple[list[Row], dict[str, list[Row]]]:
    """The kept rows of a nested tree (rows with ``children``) as ``(tops, children by id)``.

    A kept row below rows that are not kept hangs from its nearest kept
    ancestor, in the order a depth-first walk meets it, so nothing kept is lost.
    """
    tops: list[Row] = []
    below: dict[str, list[Row]] = {}
    stack: list[tuple[Row, str | None]] = [(row, None) for row in reversed(roots)]
    while stack:
        row, holder = stack.pop()
        if keep(row):
            (tops if holder is None else below.setdefault(holder, [])).append(row)
            holder = row["id"]
        stack.extend((child, holder) for child in reversed(row.get("children") or []))
    return tops, below


def count_below(row_id: str, below: dict[str, list[Row]]) -> int:
    """How many rows hang under ``row_id``, at any depth."""
    count, stack = 0, list(below.get(row_id, []))
    while stack:
        row = stack.pop()
        count += 1
        stack.extend(below.get(row["id"], []))
    return count


def nest(
    tops: list[Row],
    below: dict[str, list[Row]],
    *,
    max_depth: int,
    shape: Callable[[Row], dict[str, Any]],
    cut: Callable[[Row, int], dict[str, Any]],
) -> list[dict[str, Any]]:
    """``shape(row)`` for each top with its ``children`` nested, down to ``max_depth`` levels below the tops.

    A node at ``max_depth`` that has rows below it gets ``children: []`` and
    ``more: cut(row, how many rows are hidden)``.
    """
    nested: list[dict[str, Any]] = []
    stack: list[tuple[Row, int, list[dict[str, Any]]]] = [(row, 0, nested) for row in reversed(tops)]
    while stack:
        row, depth, siblings = stack.pop()
        node = {**shape(row), "children": []}
        siblings.append(node)
        children = below.get(row["id"], [])
        if children and depth >= max_depth:
            node["more"] = cut(row, count_below(row["id"], below))
        elif children:
            stack.extend((child, depth + 1, node["children"]) for child in reversed(children))
    return nested
