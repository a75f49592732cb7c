"""A call's outcome: status, meta (latency, trace id, warnings), error, HTTP request or response, diff, entities, envelope."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Label, Static

from .._palette import Palette, json_syntax
from .._render_http import http_response, render_preview, render_response
from .._render_result import diff_is_empty, meta_line, render_error, status_line, touched_entities
from .diff_view import DiffView
from .entity_links import EntityLinks


ENTITIES_HEADING = "Entities touched (Enter opens one)"
IDS_HEADING = "Ids in the answer (Enter copies one)"


class ResultView(VerticalScroll):
    """The parent calls :meth:`show` with an envelope; entity links post ``EntityLinks.EntityChosen``."""

    DEFAULT_CSS = """
    ResultView { height: 1fr; padding: 0 1; }
    ResultView > .result-heading { color: $text-primary; text-style: bold; margin: 1 0 0 0; }
    ResultView > #result-error { color: $text-error; }
    ResultView > #result-warnings { color: $text-warning; }
    """

    def __init__(self, **kwargs: Any):
        super().__init__(**kwargs)
        self.envelope: dict[str, Any] | None = None

    def compose(self) -> ComposeResult:
        yield Static(Text("No call yet. Build one (F3), then F5 dry-runs it and F6 runs it.", style="dim"), id="result-status")
        yield Static("", id="result-meta")
        yield Static("", id="result-warnings")
        yield Static("", id="result-error")
        yield Label("", classes="result-heading", id="http-heading")
        yield Static("", id="result-http")
        yield Label("Changes", classes="result-heading", id="diff-heading")
        yield DiffView(id="result-diff")
        yield Label(ENTITIES_HEADING, classes="result-heading", id="entities-heading")
        yield EntityLinks(id="result-entities")
        yield Label("Envelope", classes="result-heading", id="envelope-heading")
        yield Static("", id="result-json")

    def on_mount(self) -> None:
        self._toggle(False, False, False)
        for selector in ("#result-meta", "#result-warnings", "#result-error", "#http-heading", "#result-http"):
            self.query_one(selector).display = False

    def _toggle(self, diff: bool, entities: bool, envelope: bool) -> None:
        for selector, shown in (("#diff-heading", diff), ("#result-diff", diff), ("#entities-heading", entities),
                                ("#result-entities", entities), ("#envelope-heading", envelope), ("#result-json", envelope)):
            self.query_one(selector).display = shown

    def _show_http(self, envelope: dict[str, Any], palette: Palette) -> None:
        """The request a preview would send, or the status, headers and body an HTTP op got back."""
        preview = (envelope.get("meta") or {}).get("preview")
        response = http_response(envelope)
        heading, shown = "", ""
        if isinstance(preview, dict):
            heading, shown = "Request (not sent)", render_preview(preview, palette)
        elif response is not None:
            heading, shown = "Response", render_response(*response, palette)
        self.query_one("#http-heading", Label).update(heading)
        self.query_one("#result-http", Static).update(shown)
        for selector in ("#http-heading", "#result-http"):
            self.query_one(selector).display = bool(heading)

    def show(self, envelope: dict[str, Any], *, from_store: bool = True) -> None:
        """``from_store``: the op ran on the store, so the ids it names are entities that open; an
        upstream's answer (HTTP, MCP, a tool folder) names ids of its own, listed to copy."""
        self.envelope = envelope
        palette = Palette.of(self.app)
        meta = envelope.get("meta") or {}
        self.query_one("#result-status", Static).update(status_line(envelope, palette))
        shown_meta = self.query_one("#result-meta", Static)
        shown_meta.update(meta_line(envelope))
        shown_meta.display = True
        warnings = meta.get("warnings") or []
        shown_warnings = self.query_one("#result-warnings", Static)
        shown_warnings.update(Text("\n".join(f"⚠ {w}" for w in warnings)))
        shown_warnings.display = bool(warnings)
        shown_error = self.query_one("#result-error", Static)
        shown_error.update("" if envelope.get("ok") else render_error(envelope, palette))
        shown_error.display = not envelope.get("ok")
        self._show_http(envelope, palette)
        known = meta.get("names") or {}
        # The names a write's envelope carries fill in what the result itself does not name.
        entities = [
            (i, kind or (known.get(i) or {}).get("kind"), name or (known.get(i) or {}).get("name", ""))
            for i, kind, name in touched_entities(envelope)
        ]
        diff = meta.get("diff")
        names: dict[str, Any] = {i: n for i, _, n in entities if n}
        names.update(meta.get("names") or {})
        view = self.query_one(DiffView)
        view.names = names
        view.diff = diff
        self.query_one(EntityLinks).show(entities, opens=from_store)
        self.query_one("#entities-heading", Label).update(ENTITIES_HEADING if from_store else IDS_HEADING)
        self.query_one("#result-json", Static).update(json_syntax(envelope, palette))
        self._toggle(diff is not None and (not diff_is_empty(diff) or bool(meta.get("dry_run"))), bool(entities), True)
        self.scroll_home(animate=False)
