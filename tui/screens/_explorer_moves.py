"""The explorer's moves that are not building or running: Find, back after following an entity, panes, export.

Mixed into :class:`~opgate.tui.screens.explorer.ExplorerScreen`, which
provides ``open_op``, ``gateway``, ``call_op``, ``call_args`` and the widgets.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import work
from textual.message import Message
from textual.widgets import Static

from .._keys import key_label
from .._plain import shown
from ..widgets.collection_browser import CollectionBrowser
from ..widgets.op_tree import OpTree

if TYPE_CHECKING:
    from .jump import Jump

# Find's and Export's screens are imported when first opened, not before the explorer's first frame.

# How many calls "back" remembers.
BACK_DEPTH = 20


@dataclass(frozen=True)
class Place:
    """Where the person was: the call being built and the result shown beside it."""

    op: str
    args: dict[str, Any]
    envelope: dict[str, Any] | None
    label: str


class ExplorerMoves:
    """Find from anywhere, a back stack with a breadcrumb, hiding the tree, maximising a pane, export."""

    @dataclass
    class ReportWritten(Message):
        path: str
        problem: str | None = None

    def init_moves(self) -> None:
        self.back_stack: list[Place] = []
        self.last_call: tuple[str, dict[str, Any], dict[str, Any]] | None = None

    # -- Find -------------------------------------------------------------------------------

    def action_find(self) -> None:
        from .jump import JumpScreen

        paths = [r.op for r in self.gateway.help_tree.root.ops()]  # type: ignore[attr-defined]

        async def chosen(jump: Jump | None) -> None:
            if jump:
                await self.open_op(jump.op, jump.args or None)  # type: ignore[attr-defined]

        self.app.push_screen(JumpScreen(paths), chosen)  # type: ignore[attr-defined]

    # -- back -------------------------------------------------------------------------------

    def remember_place(self, envelope: dict[str, Any] | None) -> None:
        """Called before following an entity: the call being built goes on the back stack."""
        if not self.call_op:  # type: ignore[attr-defined]
            return
        label = self.call_op  # type: ignore[attr-defined]
        self.back_stack.append(Place(self.call_op, dict(self.call_args), envelope, label))  # type: ignore[attr-defined]
        del self.back_stack[:-BACK_DEPTH]
        self.show_breadcrumb()

    async def action_back(self) -> None:
        if not self.back_stack:
            return
        place = self.back_stack.pop()
        if await self.open_op(place.op, place.args, tab="build"):  # type: ignore[attr-defined]
            if place.envelope is not None:
                self.query_one("#result-view").show(place.envelope, from_store=self.from_store(place.envelope))  # type: ignore[attr-defined]
            self.notify(f"Back to {place.op}", timeout=2, markup=False)  # type: ignore[attr-defined]
        self.show_breadcrumb()

    def show_breadcrumb(self) -> None:
        crumb = self.query_one("#breadcrumb", Static)  # type: ignore[attr-defined]
        crumb.display = bool(self.back_stack)
        if self.back_stack:
            trail = "  ›  ".join(shown(place.label) for place in self.back_stack[-3:])
            more = "…  ›  " if len(self.back_stack) > 3 else ""
            record = self.query_one("#builder").record  # type: ignore[attr-defined]
            here = record.op if record is not None else ""
            back_key = key_label(self.app, "opgate.back")  # type: ignore[attr-defined]
            crumb.update(Text.assemble((f"{back_key} back: ", "bold"), more, trail, "  ›  ", (shown(here), "bold")))

    # -- panes ------------------------------------------------------------------------------

    def left_pane(self) -> Any:
        """The left pane being shown: the op tree, or the collections in its place (ctrl+o)."""
        browser = self.query_one(CollectionBrowser)  # type: ignore[attr-defined]
        return browser if browser.display else self.query_one(OpTree)  # type: ignore[attr-defined]

    def action_toggle_tree(self) -> None:
        """Hide the left pane (the tree, or the collections shown in its place), or bring the tree back."""
        tree, browser = self.query_one(OpTree), self.query_one(CollectionBrowser)  # type: ignore[attr-defined]
        if tree.display or browser.display:
            hidden = tree if tree.display else browser
            tree.display = browser.display = False
            if hidden.has_focus_within:
                self.query_one("#tabs").focus()  # type: ignore[attr-defined]
        else:
            tree.display = True

    def action_maximize_pane(self) -> None:
        screen = self  # the mixin is a Screen
        if screen.maximized is not None:  # type: ignore[attr-defined]
            screen.minimize()  # type: ignore[attr-defined]
            return
        focused = self.app.focused  # type: ignore[attr-defined]
        left = self.left_pane()
        target = left if focused is not None and left in focused.ancestors_with_self else self.query_one("#tabs")  # type: ignore[attr-defined]
        screen.maximize(target, container=False)  # type: ignore[attr-defined]

    # -- export -----------------------------------------------------------------------------

    def action_export(self) -> None:
        if self.last_call is None:
            self.notify("Nothing to export yet: dry-run (F5) or run (F6) a call first.", severity="warning")  # type: ignore[attr-defined]
            return
        op, args, envelope = self.last_call
        meta = envelope.get("meta") or {}
        what = "dry-run" if meta.get("dry_run") else "run" if envelope.get("ok") else "failed-call"
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        suggested = f"opgate-{op}-{what}-{stamp}.md"
        from .export_call import ExportCallScreen

        def chosen(path: str | None) -> None:
            if path:
                self.write_export(path, op, args, envelope)

        self.app.push_screen(ExportCallScreen(suggested, f"the {what} of {op}"), chosen)  # type: ignore[attr-defined]

    @work(thread=True, exclusive=True, exit_on_error=False, group="export", name="export")
    def write_export(self, path: str, op: str, args: dict[str, Any], envelope: dict[str, Any]) -> None:
        from opgate.core.call_report import write_report

        try:
            written = write_report(path, op, args, envelope)
        except (OSError, ValueError) as exc:
            self.post_message(self.ReportWritten(path, str(exc)))  # type: ignore[attr-defined]
            return
        self.post_message(self.ReportWritten(str(written.resolve())))  # type: ignore[attr-defined]

    # A named handler: Textual registers ``@on`` only on classes made by its metaclass, and this is a plain mixin.
    def on_explorer_moves_report_written(self, event: ReportWritten) -> None:
        if event.problem:
            self.notify(f"Nothing was written: {event.problem}", title="Export failed", severity="error", markup=False)  # type: ignore[attr-defined]
        else:
            self.notify(event.path, title="Exported", markup=False)  # type: ignore[attr-defined]


__all__ = ["ExplorerMoves", "Place"]
