"""The namespace as a tree: groups, entities and ops, built from dotted op names.

The tree is computed from the sorted list of visible op names, one node at
a time, when a node is asked for. The ops at or under ``a.b`` are one
contiguous run of that list (``a.b`` itself, then everything from ``a.b.``
up to ``a.b/``: ``/`` follows ``.``), so a node's counts are two binary
searches and a prefix sum of read ops, and its children are one binary
search each. Opening the root of a 100,000-op catalogue costs what its
children cost, not what the whole tree would.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import accumulate

from ..registry._record import OpRecord

# The character after "." in code-point order: "a.b/" sorts after every "a.b.<anything>".
_AFTER_DOT = "/"


class HelpNode:
    """A node of the namespace. A node may be an op, a group, or both (``a.b`` next to ``a.b.c``).

    ``total``, ``reads`` and ``writes`` count the ops at or under it;
    ``children`` maps each next segment to its node, in name order.
    """

    __slots__ = ("_children", "_tree", "is_op", "lo", "hi", "name", "path")

    def __init__(self, tree: HelpTree, path: str, name: str, is_op: bool, lo: int, hi: int):
        self._tree = tree
        self.path = path
        self.name = name
        self.is_op = is_op
        # [lo, hi): the ops strictly under this node, in the tree's sorted list.
        self.lo = lo
        self.hi = hi
        self._children: dict[str, HelpNode] | None = None

    @property
    def record(self) -> OpRecord | None:
        return self._tree.record_of(self.path) if self.is_op else None

    @property
    def total(self) -> int:
        return self.hi - self.lo + self.is_op

    @property
    def reads(self) -> int:
        own = self.is_op and self._tree.kind_of(self.path) == "read"
        return self._tree.reads_between(self.lo, self.hi) + own

    @property
    def writes(self) -> int:
        return self.total - self.reads

    @property
    def children(self) -> dict[str, HelpNode]:
        if self._children is None:
            self._children = self._tree.children_of(self)
        return self._children

    def op_names(self) -> list[str]:
        """The names of every op at or under this node, in name order."""
        return ([self.path] if self.is_op else []) + self._tree.ops[self.lo : self.hi]

    def ops(self) -> Iterator[OpRecord]:
        """Every op at or under this node, in name order."""
        if self.is_op:
            yield self._tree.record_of(self.path)  # type: ignore[misc]
        for op in self._tree.ops[self.lo : self.hi]:
            yield self._tree.record_of(op)  # type: ignore[misc]

    def __repr__(self) -> str:
        return f"HelpNode({self.path!r}, total={self.total})"


class HelpTree:
    """All visible ops, arranged by the segments of their names."""

    def __init__(self, records: Iterable[OpRecord]):
        listed = sorted(records, key=lambda r: r.op)
        by_op = {r.op: r for r in listed}
        self._setup([r.op for r in listed], [r.kind for r in listed], by_op.get)

    @classmethod
    def from_ops(cls, ops: Sequence[str], kinds: Sequence[str], record_of: Callable[[str], OpRecord | None]) -> HelpTree:
        """A tree over ``ops`` (sorted) and their kinds; ``record_of`` fetches a record only when a node shows it."""
        tree = cls.__new__(cls)
        tree._setup(list(ops), list(kinds), record_of)
        return tree

    def _setup(self, ops: list[str], kinds: list[str], record_of: Callable[[str], OpRecord | None]) -> None:
        self.ops = ops
        self._kind = dict(zip(ops, kinds))
        self._reads_before = [0, *accumulate(kind == "read" for kind in kinds)]
        self.record_of = record_of
        self.root = HelpNode(self, "", "root", False, 0, len(ops))
        self._nodes: dict[str, HelpNode] = {"": self.root}

    def kind_of(self, op: str) -> str | None:
        return self._kind.get(op)

    def reads_between(self, lo: int, hi: int) -> int:
        return self._reads_before[hi] - self._reads_before[lo]

    def _make(self, path: str, name: str, start: int, end: int) -> HelpNode:
        """The node at ``path``, whose ops are among ``ops[start:end]``."""
        ops = self.ops
        is_op = start < end and ops[start] == path
        lo = bisect_left(ops, path + ".", start, end)
        node = HelpNode(self, path, name, is_op, lo, bisect_left(ops, path + _AFTER_DOT, lo, end))
        self._nodes[path] = node
        return node

    def children_of(self, node: HelpNode) -> dict[str, HelpNode]:
        children: dict[str, HelpNode] = {}
        ops, prefix = self.ops, (node.path + "." if node.path else "")
        cut = len(prefix)
        position, end = node.lo, node.hi
        while position < end:
            name = ops[position][cut:].split(".", 1)[0]
            path = prefix + name
            child = self._nodes.get(path)
            if child is None:
                child = self._make(path, name, position, end)
            children[name] = child
            position = max(child.hi, position + child.is_op)
        return children

    def node(self, path: str) -> HelpNode | None:
        found = self._nodes.get(path)
        if found is not None or not path:
            return found
        start = bisect_left(self.ops, path)
        node = self._make(path, path.rsplit(".", 1)[-1], start, len(self.ops))
        if not node.is_op and node.lo == node.hi:
            del self._nodes[path]
            return None
        return node

    @property
    def paths(self) -> list[str]:
        """Every node's path (every op and every group above one), in name order."""
        found: dict[str, None] = {}
        for op in self.ops:
            parts = op.split(".")
            for end in range(1, len(parts) + 1):
                found.setdefault(".".join(parts[:end]))
        return list(found)
