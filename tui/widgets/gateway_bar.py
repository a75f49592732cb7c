"""The top bar: catalogue, database (or the call running now), context scope, op count and the read-only / allow-write badge."""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal
from textual.reactive import reactive
from textual.widgets import Label


class GatewayBar(Horizontal):
    """Shows what the gateway is set to; the screen sets the attributes."""

    DEFAULT_CSS = """
    GatewayBar { height: 1; background: $panel; }
    GatewayBar > Label { padding: 0 1; height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    GatewayBar > #bar-title { text-style: bold; color: $text-primary; }
    GatewayBar > #bar-where { width: 1fr; color: $text-muted; }
    GatewayBar > #bar-where.-running { color: $text-warning; text-style: bold; }
    GatewayBar > #bar-context { color: $text-accent; }
    GatewayBar > #bar-mode { text-style: bold; }
    GatewayBar > #bar-mode.-read-only { background: $success-muted; color: $text-success; }
    GatewayBar > #bar-mode.-writes { background: $error; color: $text; }
    """

    catalog: reactive[str] = reactive("")
    db: reactive[str] = reactive("")
    context: reactive[str] = reactive("all")
    ops: reactive[int] = reactive(0)
    allow_write: reactive[bool] = reactive(False)
    running: reactive[str] = reactive("")
    """The call in flight ("" when none): a slow upstream otherwise looks like a key that did nothing."""

    def compose(self) -> ComposeResult:
        yield Label("opgate", id="bar-title")
        yield Label("", id="bar-where")
        yield Label("", id="bar-context")
        yield Label("", id="bar-mode")

    def on_mount(self) -> None:
        self._show()

    def watch_catalog(self) -> None:
        self._show()

    def watch_db(self) -> None:
        self._show()

    def watch_context(self) -> None:
        self._show()

    def watch_ops(self) -> None:
        self._show()

    def watch_allow_write(self) -> None:
        self._show()

    def watch_running(self) -> None:
        self._show()

    def _show(self) -> None:
        if not self.is_mounted:
            return
        where = self.query_one("#bar-where", Label)
        # Paths and op names are data, not markup.
        where.update(Text(f"running {self.running}…" if self.running else f"{self.catalog} · db {self.db}"))
        where.set_class(bool(self.running), "-running")
        where.tooltip = f"catalogue: {self.catalog}\ndatabase: {self.db}"
        self.query_one("#bar-context", Label).update(Text(f"context: {self.context} · {self.ops} op{'' if self.ops == 1 else 's'}"))
        mode = self.query_one("#bar-mode", Label)
        mode.update(" WRITES ON " if self.allow_write else " READ-ONLY ")
        mode.set_class(self.allow_write, "-writes")
        mode.set_class(not self.allow_write, "-read-only")
        mode.tooltip = "F8 switches between read-only and allow-write"
