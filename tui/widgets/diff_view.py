"""A store diff (``meta.diff``): created, updated field by field, deleted, edges and links."""

from __future__ import annotations

from typing import Any

from textual.reactive import reactive
from textual.widgets import Static

from .._palette import Palette
from .._render_result import render_diff


class DiffView(Static):
    """Renders :attr:`diff`; :attr:`names` labels ids it knows (``{id: "API Spec"}``)."""

    DEFAULT_CSS = """
    DiffView { height: auto; padding: 0 1; }
    """

    diff: reactive[dict[str, Any] | None] = reactive(None, layout=True)
    names: reactive[dict[str, Any]] = reactive(dict, layout=True)

    def render(self) -> Any:
        return render_diff(self.diff, Palette.of(self.app), names=self.names)
