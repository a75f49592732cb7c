"""Collections beside the op tree: each collection folder, and its saved calls in run order."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar

from rich.text import Text
from textual.message import Message
from textual.reactive import var
from textual.widgets import Tree
from textual.widgets.tree import TreeNode


@dataclass(frozen=True)
class CollectionNode:
    """A node of the browser: a whole collection (``position`` None) or one of its calls."""

    path: Path
    position: int | None = None


@dataclass(frozen=True)
class Listing:
    """What the parent hands down: loaded collections, and the ones that could not load (path, first problem)."""

    collections: tuple[Any, ...] = ()
    broken: tuple[tuple[Path, str], ...] = ()
    shipped: frozenset[Path] = frozenset()


class CollectionBrowser(Tree[CollectionNode]):
    """Shows :attr:`listing`; posts :class:`CallChosen` (Enter on a call) and :class:`CursorMoved`."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {"collection-browser--dim", "collection-browser--broken"}
    DEFAULT_CSS = """
    CollectionBrowser > .collection-browser--dim { text-style: dim; }
    CollectionBrowser > .collection-browser--broken { color: $text-error; }
    """

    listing: var[Listing] = var(Listing, always_update=True)

    @dataclass
    class CallChosen(Message):
        """Enter on a saved call: open it in the builder."""

        path: Path
        position: int

    @dataclass
    class CursorMoved(Message):
        """The cursor is on a collection (``position`` None) or a call."""

        path: Path
        position: int | None

    def __init__(self, **kwargs: Any):
        super().__init__("collections", data=None, **kwargs)
        self.show_root = False
        self.guide_depth = 2

    def watch_listing(self, listing: Listing) -> None:
        where = self.selected
        self.clear()
        dim = self.get_component_rich_style("collection-browser--dim", partial=True)
        for collection in listing.collections:
            label = Text(collection.name)
            count = len(collection.calls)
            label.append(f"  {count} call{'' if count == 1 else 's'}" + ("  shipped" if collection.path in listing.shipped else ""), style=dim)
            node = self.root.add(label, data=CollectionNode(collection.path), expand=True)
            for position, call in enumerate(collection.calls):
                text = Text(call.file_name.removesuffix(".toml"))
                text.append(f"  {call.op}", style=dim)
                node.add_leaf(text, data=CollectionNode(collection.path, position))
        broken = self.get_component_rich_style("collection-browser--broken", partial=True)
        for path, problem in listing.broken:
            self.root.add_leaf(Text.assemble((f"{path.name}  ", broken), (problem, dim)), data=CollectionNode(path))
        if not listing.collections and not listing.broken:
            self.root.add_leaf(Text("no collections yet: ctrl+s saves the call being built", style=dim))
        if where is not None:
            self.select(where)
        else:
            self.cursor_line = 0  # F5/F6 act on what the cursor is on: start on the first collection

    @property
    def selected(self) -> CollectionNode | None:
        """The collection or call under the cursor."""
        node = self.cursor_node
        return node.data if node is not None else None

    def select(self, wanted: CollectionNode) -> None:
        """Put the cursor back on ``wanted`` after the listing was refreshed."""
        for node in self._listed_nodes():
            if node.data == wanted:
                self.move_cursor(node)
                return

    def _listed_nodes(self) -> list[TreeNode[CollectionNode]]:  # not _nodes: a Widget keeps its children there
        found, stack = [], list(self.root.children)
        while stack:
            node = stack.pop(0)
            found.append(node)
            stack[:0] = list(node.children)
        return found

    def on_tree_node_highlighted(self, event: Tree.NodeHighlighted) -> None:
        event.stop()
        if event.node.data is not None:
            self.post_message(self.CursorMoved(event.node.data.path, event.node.data.position))

    def on_tree_node_selected(self, event: Tree.NodeSelected) -> None:
        event.stop()
        data = event.node.data
        if data is not None and data.position is not None:
            self.post_message(self.CallChosen(data.path, data.position))
