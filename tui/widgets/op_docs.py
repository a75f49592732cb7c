"""An op's help, rendered: summary, usage, args table, policy, notes, examples, schema on demand."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widgets import Static

from .._palette import Palette
from .._render_help import render_help


class OpDocs(VerticalScroll):
    """The parent sets :attr:`payload` (a ``gw.help(op, format="full")`` dict) and :attr:`show_schema`."""

    DEFAULT_CSS = """
    OpDocs { height: 1fr; padding: 0 1; }
    """

    payload: reactive[dict[str, Any] | None] = reactive(None, always_update=True)
    show_schema: reactive[bool] = reactive(False)

    def compose(self) -> ComposeResult:
        yield Static(id="docs-body")

    def on_mount(self) -> None:
        self.watch(self.app, "theme", lambda _: self._render_payload(), init=False)
        self._render_payload()

    def watch_payload(self) -> None:
        self._render_payload()
        self.scroll_home(animate=False)

    def watch_show_schema(self) -> None:
        self._render_payload()

    def _render_payload(self) -> None:
        bodies = self.query("#docs-body")
        if not bodies:
            return
        body = render_help(self.payload, Palette.of(self.app), show_schema=self.show_schema)
        bodies.first(Static).update(body)
