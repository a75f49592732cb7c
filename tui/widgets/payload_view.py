"""The exact payload the explorer will pass to ``gw.exec``, always on screen under the form."""

from __future__ import annotations

import json
from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from .._palette import Palette, json_syntax


class PayloadView(Static):
    """Renders :attr:`payload` (``{"op", "args"}``) as one highlighted JSON line (wrapped)."""

    DEFAULT_CSS = """
    PayloadView { height: auto; max-height: 6; padding: 0 1; background: $boost; overflow-y: auto; }
    """

    payload: reactive[dict[str, Any] | None] = reactive(None)

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self._lines = 0

    def watch_payload(self, payload: dict[str, Any] | None) -> None:
        # A new layout only when the wrapped payload needs another number of lines (not on every key).
        width = max(self.size.width - 2, 20)
        lines = min(len(json.dumps(payload, default=str)) // width + 1, 6) if payload else 1
        if lines != self._lines:
            self._lines = lines
            self.refresh(layout=True)

    def render(self) -> Any:
        if not self.payload:
            return Text("exec payload: open an op (Enter in the tree)", style="dim")
        return Text.assemble(("exec ", "bold"), json_syntax(self.payload, Palette.of(self.app), indent=None))
