"""The namespace as a tree: groups, entities, read/write, ops. Children load when a node opens."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.message import Message
from textual.reactive import var
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

# Past this depth a node with this many ops or fewer is an entity: its ops split into read and write.
BUCKET_LIMIT = 20
BADGE_TEXT = {"read": "r", "write": "w", "destructive": "del", "confirmation": "ask"}


@dataclass(frozen=True)
class NodeData:
    """What a tree node stands for: a group path, a read/write bucket of a group, or one op."""

    kind: str
    path: str
    bucket: str | None = None
    badges: tuple[str, ...] = ()
    counts: tuple[int, int, int] = (0, 0, 0)
    loaded: bool = False


def _relative(op: str, base: str) -> str:
    return op[len(base) + 1:] if base and op.startswith(base + ".") else op


class OpTree(Tree[NodeData]):
    """Browses a ``HelpTree``; the parent sets :attr:`help_tree` and hears about ops by message."""

    BINDINGS: ClassVar = [
        Binding("right", "open_node", "Open", show=False, id="tree.open", tooltip="Open the group under the cursor"),
        Binding("left", "close_node", "Close", show=False, id="tree.close", tooltip="Close the group, or go to its parent"),
    ]
    COMPONENT_CLASSES: ClassVar[set[str]] = {"op-tree--read", "op-tree--write", "op-tree--destructive", "op-tree--confirmation", "op-tree--count"}
    DEFAULT_CSS = """
    OpTree > .op-tree--read { color: $text-success; }
    OpTree > .op-tree--write { color: $text-warning; }
    OpTree > .op-tree--destructive { color: $text-error; text-style: bold; }
    OpTree > .op-tree--confirmation { color: $text-accent; text-style: bold; }
    OpTree > .op-tree--count { text-style: dim; }
    """

    help_tree: var[Any] = var(None, always_update=True)

    @dataclass
    class OpHighlighted(Message):
        """The cursor is on an op."""

        op: str

    @dataclass
    class GroupHighlighted(Message):
        """The cursor is on a group (``kind`` is ``read``/``write`` for a bucket)."""

        path: str
        kind: str | None = None

    @dataclass
    class OpChosen(Message):
        """Enter (or a click) on an op: open it in the builder."""

        op: str

    def __init__(self, **kwargs: Any):
        super().__init__("ops", data=NodeData("group", ""), **kwargs)
        self.guide_depth = 2
        self.show_root = False

    # -- building -----------------------------------------------------------------------

    def watch_help_tree(self, help_tree: Any) -> None:
        self.clear()
        if help_tree is None:
            return
        root = help_tree.root
        self.root.data = NodeData("group", "", counts=(root.total, root.reads, root.writes))
        self._fill(self.root)
        self.root.expand()
        if self.root.children:
            self._place_cursor(self.root.children[0])

    def _fill(self, node: TreeNode[NodeData]) -> None:
        data = node.data
        if data is None or data.loaded or self.help_tree is None:
            return
        node.data = NodeData(data.kind, data.path, data.bucket, data.badges, data.counts, loaded=True)
        if data.kind == "bucket":
            source = self.help_tree.node(data.path)
            for record in source.ops() if source else ():
                if record.kind == data.bucket:
                    self._add_op(node, record, _relative(record.op, data.path))
            return
        group = self.help_tree.node(data.path) if data.path else self.help_tree.root
        if group is None:
            return
        depth = data.path.count(".") + 1 if data.path else 0
        if depth >= 2 and group.total <= BUCKET_LIMIT:
            for kind, count in (("read", group.reads), ("write", group.writes)):
                if count:
                    node.add(Text(kind), NodeData("bucket", data.path, kind, counts=(count, 0, 0)))
            return
        for name in sorted(group.children):
            child = group.children[name]
            if child.children:
                node.add(Text(name), NodeData("group", child.path, counts=(child.total, child.reads, child.writes)))
            if child.record is not None:
                self._add_op(node, child.record, name)

    def _add_op(self, parent: TreeNode[NodeData], record: Any, label: str) -> None:
        parent.add_leaf(Text(label), NodeData("op", record.op, badges=tuple(record.badges)))

    def _style(self, name: str) -> Style:
        return self.get_component_rich_style(f"op-tree--{name}", partial=True, default=Style())

    def render_label(self, node: TreeNode[NodeData], base_style: Style, style: Style) -> Text:
        text = super().render_label(node, base_style, style)
        data = node.data
        if data is None:
            return text
        if data.kind == "op":
            for badge in data.badges:
                text.append(" ")
                text.append(BADGE_TEXT.get(badge, badge), self._style(badge))
        elif data.kind == "bucket":
            text.append(f" {data.counts[0]}", self._style("count"))
        else:
            total, reads, writes = data.counts
            text.append(f" {total}", self._style("count"))
            if reads:
                text.append(f" {reads}r", self._style("read"))
            if writes:
                text.append(f" {writes}w", self._style("write"))
        return text

    # -- events -----------------------------------------------------------------------------

    def on_tree_node_expanded(self, event: Tree.NodeExpanded[NodeData]) -> None:
        self._fill(event.node)

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted[NodeData]) -> None:
        event.stop()
        data = event.node.data
        if data is not None and data.kind == "op":
            self.post_message(self.OpHighlighted(data.path))
        elif data is not None:
            self.post_message(self.GroupHighlighted(data.path, data.bucket))

    def on_tree_node_selected(self, event: Tree.NodeSelected[NodeData]) -> None:
        event.stop()
        data = event.node.data
        if data is not None and data.kind == "op":
            self.post_message(self.OpChosen(data.path))

    def action_open_node(self) -> None:
        node = self.cursor_node
        if node is not None and node.allow_expand:
            if node.is_expanded and node.children:
                self.move_cursor(node.children[0])
            else:
                self._fill(node)
                node.expand()

    def action_close_node(self) -> None:
        node = self.cursor_node
        if node is None:
            return
        if node.allow_expand and node.is_expanded:
            node.collapse()
        elif node.parent is not None and node.parent is not self.root:
            self.move_cursor(node.parent)

    # -- finding an op ------------------------------------------------------------------------

    def _place_cursor(self, node: TreeNode[NodeData]) -> None:
        _ = self.last_line  # lays out the lines opened above, so the node has its line number
        self.move_cursor(node, animate=False)

    def _holds(self, data: NodeData, op: str, kind: str | None) -> bool:
        if data.kind == "op":
            return data.path == op
        inside = not data.path or op.startswith(data.path + ".")
        return inside and (data.kind != "bucket" or data.bucket == kind)

    def reveal(self, op: str) -> bool:
        """Open the groups down to ``op`` and put the cursor on it; False when it is not in the tree."""
        record = self.help_tree.node(op).record if self.help_tree and self.help_tree.node(op) else None
        if record is None:
            return False
        node = self.root
        while True:
            self._fill(node)
            node.expand()
            found = next((c for c in node.children if c.data and self._holds(c.data, op, record.kind)), None)
            if found is None:
                return False
            if found.data and found.data.kind == "op":
                self._place_cursor(found)
                return True
            node = found
