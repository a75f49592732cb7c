"""Finding ``$ref`` cycles that never reach a value.

A schema may refer to itself: a tree node whose ``children`` are items of the
same node is fine, because each turn of the loop goes one level down into the
value, and values end. A loop that stays at the same place in the value
(``#/$defs/a`` is ``{"$ref": "#/$defs/b"}`` and ``b`` refers back to ``a``,
or through ``allOf``) has no end: every validation recursed until Python
gave up, and every exec of the tool failed with INTERNAL. Such loops are
found here, once, when the catalogue loads.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

Path = tuple[str, ...]

# Keywords whose subschemas apply to the same value as their parent ("in place").
_IN_PLACE_LISTS = ("allOf", "anyOf", "oneOf")
_IN_PLACE_ONE = ("not", "if", "then", "else")
_IN_PLACE_MAPS = ("dependentSchemas",)
# Keywords whose values are data, not schemas.
_DATA = ("enum", "const", "examples", "default", "required")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "definitions", "dependentSchemas")


def _schemas(node: Any, path: Path = ()) -> Iterator[tuple[Path, dict[str, Any]]]:
    """Every schema object in the document with its path (keys as strings, as a JSON pointer has them)."""
    if isinstance(node, dict):
        yield path, node
        for key, value in node.items():
            if key in _DATA:
                continue
            if key in _SCHEMA_MAPS and isinstance(value, dict):
                for name, sub in value.items():
                    yield from _schemas(sub, (*path, key, name))
            else:
                yield from _schemas(value, (*path, key))
    elif isinstance(node, list):
        for index, item in enumerate(node):
            yield from _schemas(item, (*path, str(index)))


def _ref_path(ref: str) -> Path | None:
    if ref == "#":
        return ()
    if not ref.startswith("#/"):
        return None
    return tuple(part.replace("~1", "/").replace("~0", "~") for part in ref[2:].split("/"))


def _in_place(path: Path, node: dict[str, Any]) -> Iterator[Path]:
    ref = node.get("$ref")
    if isinstance(ref, str) and (target := _ref_path(ref)) is not None:
        yield target
    for key in _IN_PLACE_LISTS:
        if isinstance(node.get(key), list):
            yield from ((*path, key, str(i)) for i in range(len(node[key])))
    for key in _IN_PLACE_ONE:
        if isinstance(node.get(key), dict):
            yield (*path, key)
    for key in _IN_PLACE_MAPS:
        if isinstance(node.get(key), dict):
            yield from ((*path, key, name) for name in node[key])


def pointer(path: Path) -> str:
    return "#" + "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in path)


def ref_cycles(schema: dict[str, Any]) -> list[list[Path]]:
    """Each loop of references that stays at the same place in the value, as the schema paths it goes through."""
    nodes = dict(_schemas(schema))
    edges = {path: [t for t in _in_place(path, node) if t in nodes] for path, node in nodes.items()}
    state: dict[Path, int] = {}  # 1: on the current walk, 2: done
    cycles: list[list[Path]] = []
    for start in edges:
        if state.get(start):
            continue
        # An explicit stack: a long chain of references must not be a recursion of its own.
        stack: list[tuple[Path, Iterator[Path]]] = [(start, iter(edges[start]))]
        walk = [start]
        state[start] = 1
        while stack:
            path, targets = stack[-1]
            target = next(targets, None)
            if target is None:
                stack.pop()
                walk.pop()
                state[path] = 2
            elif state.get(target) == 1:
                cycles.append([*walk[walk.index(target):], target])
            elif not state.get(target):
                state[target] = 1
                walk.append(target)
                stack.append((target, iter(edges[target])))
    return cycles


__all__ = ["pointer", "ref_cycles"]
