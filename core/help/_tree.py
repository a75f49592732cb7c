"""The namespace as a tree: groups, entities and ops, built from dotted op names."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from ..registry._record import OpRecord


@dataclass
class HelpNode:
    """A node of the namespace. A node may be an op, a group, or both (``a.b`` next to ``a.b.c``)."""

    path: str
    name: str
    children: dict[str, HelpNode] = field(default_factory=dict)
    record: OpRecord | None = None
    total: int = 0
    reads: int = 0
    writes: int = 0

    def ops(self) -> Iterator[OpRecord]:
        """Every op at or under this node, in name order."""
        if self.record is not None:
            yield self.record
        for name in sorted(self.children):
            yield from self.children[name].ops()


class HelpTree:
    """All visible ops, arranged by the segments of their names."""

    def __init__(self, records: Iterable[OpRecord]):
        self.root = HelpNode(path="", name="root")
        self._nodes: dict[str, HelpNode] = {"": self.root}
        for record in records:
            self._add(record)

    def _add(self, record: OpRecord) -> None:
        node = self.root
        self._count(node, record)
        for segment in record.op.split("."):
            path = f"{node.path}.{segment}" if node.path else segment
            child = node.children.get(segment)
            if child is None:
                child = node.children[segment] = HelpNode(path=path, name=segment)
                self._nodes[path] = child
            node = child
            self._count(node, record)
        node.record = record

    @staticmethod
    def _count(node: HelpNode, record: OpRecord) -> None:
        node.total += 1
        if record.kind == "read":
            node.reads += 1
        else:
            node.writes += 1

    def node(self, path: str) -> HelpNode | None:
        return self._nodes.get(path)

    @property
    def paths(self) -> list[str]:
        return [p for p in self._nodes if p]
