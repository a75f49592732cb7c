"""Grouping deferred typed tools into OpenAI Responses namespaces.

Up front, a model sees only each namespace's name and description; the
functions inside load when its tool search picks them. OpenAI advises fewer
than ten functions per namespace, and a namespace per op group gives Twilio
520 of them, 167 with a single function. So the op tree is cut where a
subtree fits the cap (a product, an entity), a group too big for it is split
along its subgroups, and small neighbours under one parent are merged until
the cap: Twilio's 1,447 ops fit in 207 namespaces, one of them a singleton.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from ..registry._exported import exported_name
from ._spec import ToolSpec

# "Aim for fewer than 10 functions per namespace" (OpenAI's tool search guide).
NAMESPACE_CAP = 9
_UNGROUPED = "ops"


@dataclass
class _Node:
    path: str
    specs: list[ToolSpec] = field(default_factory=list)
    children: dict[str, _Node] = field(default_factory=dict)

    def all_specs(self) -> list[ToolSpec]:
        return [*self.specs, *(s for name in sorted(self.children) for s in self.children[name].all_specs())]


@dataclass
class Namespace:
    """One namespace: the group it covers, the op groups inside it (relative names), and its functions."""

    path: str
    parts: list[str]
    specs: list[ToolSpec]

    @property
    def name(self) -> str:
        return exported_name((self.path + _range(self.parts)).replace(".", "_"))


def _tree(specs: list[ToolSpec]) -> _Node:
    root = _Node("")
    for spec in specs:
        group = spec.op.rsplit(".", 1)[0] if spec.op and "." in spec.op else _UNGROUPED
        node = root
        for segment in group.split("."):
            path = f"{node.path}.{segment}" if node.path else segment
            node = node.children.setdefault(segment, _Node(path))
        node.specs.append(spec)
    return root


def _relative(path: str, parent: str) -> str:
    return path[len(parent) + 1 :] if parent and path.startswith(parent + ".") else path


def _plan(node: _Node, cap: int) -> list[Namespace]:
    everything = node.all_specs()
    if len(everything) <= cap:
        return [Namespace(node.path, [""], everything)]
    pieces: list[Namespace] = []
    direct = sorted(node.specs, key=lambda s: s.op or s.name)
    for start in range(0, len(direct), cap):
        chunk = direct[start : start + cap]
        ends = [(s.op or s.name).rsplit(".", 1)[-1] for s in (chunk[0], chunk[-1])]
        pieces.append(Namespace(node.path, ends if len(direct) > cap else [""], chunk))
    for name in sorted(node.children):
        for piece in _plan(node.children[name], cap):
            # A piece from below is re-labelled relative to this node, so that merging can name its range.
            label = _relative(piece.path, node.path) if node.path else piece.path
            pieces.append(Namespace(node.path, [label + _range(piece.parts)], piece.specs))
    return _merge(pieces, cap)


def _range(parts: list[str]) -> str:
    named = [p for p in parts if p]
    if len(named) > 1:
        return f"_{named[0]}_to_{named[-1]}"
    return f"_{named[0]}" if named else ""


def _merge(pieces: list[Namespace], cap: int) -> list[Namespace]:
    merged: list[Namespace] = []
    for piece in pieces:
        last = merged[-1] if merged else None
        if last is not None and len(last.specs) + len(piece.specs) <= cap:
            last.parts.extend(piece.parts)
            last.specs.extend(piece.specs)
        else:
            merged.append(Namespace(piece.path, list(piece.parts), list(piece.specs)))
    return merged


def _description(namespace: Namespace, summaries: dict[str, str]) -> str:
    groups: dict[str, list[str]] = {}
    for spec in namespace.specs:
        group, _, action = (spec.op or spec.name).rpartition(".")
        groups.setdefault("" if group == namespace.path else _relative(group, namespace.path) or _UNGROUPED, []).append(action)
    listing = "; ".join(f"{group}: {', '.join(actions)}" if group else ", ".join(actions) for group, actions in groups.items())
    whole = [namespace.path] if namespace.parts == [""] else [f"{namespace.path}.{p}" for p in namespace.parts]
    summary = summaries.get(whole[0]) if len(whole) == 1 else None
    prefix = summary or (namespace.path or "Ops")
    return f"{prefix} ({listing})" if summary else f"{prefix}: {listing}"


def plan_namespaces(specs: list[ToolSpec], summaries: dict[str, str] | None = None, cap: int = NAMESPACE_CAP) -> list[tuple[str, str, list[ToolSpec]]]:
    """``(name, description, specs)`` per namespace, at most ``cap`` functions each (a group's direct ops may fill it)."""
    root = _tree(specs)
    pieces = [piece for name in sorted(root.children) for piece in _plan(root.children[name], cap)]
    out, seen = [], set()
    for piece in pieces:
        name = piece.name
        if name in seen:  # two pieces with the same label (possible after shortening): number the later ones
            name = exported_name(f"{name}_{len(seen)}")
        seen.add(name)
        out.append((name, _description(piece, summaries or {}), piece.specs))
    return out

