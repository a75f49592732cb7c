"""Find an op: a fuzzy filter over op paths, and natural-language search (``gw.search``) below it.

A search pointer may carry suggested arguments ("mark the task done" ->
``{"state_key": "done"}``); choosing it opens the op with them filled in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.fuzzy import Matcher
from textual.message import Message
from textual.screen import ModalScreen
from textual.widgets import Input, Label, OptionList
from textual.widgets.option_list import Option

from .._failures import ReportsWorkerFailures
from .._plain import shown

PATH_LIMIT = 12
SEARCH_LIMIT = 8


def fuzzy_paths(query: str, paths: list[str], limit: int = PATH_LIMIT) -> list[tuple[float, str]]:
    """Op paths that hold the letters of ``query`` in order, best first."""
    query = query.strip()
    if not query:
        return []
    matcher = Matcher(query.replace(" ", ""))
    scored = [(score, path) for path in paths if (score := matcher.match(path)) > 0]
    scored.sort(key=lambda pair: (-pair[0], len(pair[1]), pair[1]))
    return scored[:limit]


@dataclass(frozen=True)
class Jump:
    """The chosen op, and the arguments its search pointer suggested (empty for a path match)."""

    op: str
    args: dict[str, Any] = field(default_factory=dict)


class JumpScreen(ReportsWorkerFailures, ModalScreen[Jump | None]):
    """Dismisses with the chosen :class:`Jump`, or ``None``."""

    BINDINGS: ClassVar = [
        Binding("escape", "cancel", "Close", tooltip="Close without choosing", id="opgate.jump.close"),
        Binding("down", "to_list", "Results", show=False, tooltip="Move into the results", id="opgate.jump.results"),
    ]

    @dataclass
    class Searched(Message):
        """``gw.search`` answered for ``query``."""

        query: str
        results: list[dict[str, Any]]

    def __init__(self, paths: list[str], query: str = ""):
        super().__init__()
        self.paths = paths
        self.query_text = query
        self.search_results: list[dict[str, Any]] = []

    def compose(self) -> ComposeResult:
        with Vertical(id="jump-box", classes="modal-box"):
            yield Label("[b]Find an op[/b]  letters of a path ([i]doc tree mv[/i]) or plain words ([i]move a document[/i])")
            yield Input(self.query_text, placeholder="type to find an op…", id="jump-input")
            yield OptionList(id="jump-results")
            yield Label("[dim]↓ results · Enter opens · Esc closes[/dim]")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._show(self.query_text)

    @on(Input.Changed, "#jump-input")
    def _typed(self, event: Input.Changed) -> None:
        self.query_text = event.value
        self.search_results = []
        self._show(event.value)
        if event.value.strip():
            self._search(event.value)

    @work(thread=True, exclusive=True, exit_on_error=False, name="search")
    def _search(self, query: str) -> None:
        answer = self.app.gateway.search(query, limit=SEARCH_LIMIT)  # type: ignore[attr-defined]
        results = answer.get("results", []) if answer.get("ok") else []
        self.post_message(self.Searched(query, results))

    @on(Searched)
    def _searched(self, event: Searched) -> None:
        if event.query == self.query_text:
            self.search_results = event.results
            self._show(event.query)

    def _show(self, query: str) -> None:
        results = self.query_one("#jump-results", OptionList)
        highlighted = results.highlighted_option.id if results.highlighted_option else None
        results.clear_options()
        options: list[Option | None] = []
        for _, path in fuzzy_paths(query, self.paths):
            options.append(Option(Matcher(query.replace(" ", "")).highlight(path), id=f"path:{path}"))
        if self.search_results:
            options.append(Option(Text("in words (gw.search)", style="bold dim"), disabled=True, id="search-heading"))
            for hit in self.search_results:
                suggested = "".join(f"  {k}={v}" for k, v in (hit.get("suggested_args") or {}).items())
                label = Text.assemble((shown(hit["op"]), "bold"), (suggested, "green"), f"  {shown(hit.get('summary', ''))}", (f"  {hit.get('confidence', 0):.2f}", "dim"))
                options.append(Option(label, id=f"search:{hit['op']}"))
        if not options:
            hint = "type part of an op path, or what you want to do" if not query.strip() else "nothing yet…"
            options.append(Option(Text(hint, style="dim"), disabled=True, id="none"))
        results.add_options([o for o in options if o is not None])
        ids = [o.id for o in options if o is not None and not o.disabled]
        if ids:
            results.highlighted = results.get_option_index(highlighted if highlighted in ids else ids[0])

    def _chosen(self, option_id: str | None) -> None:
        if option_id and ":" in option_id:
            source, op = option_id.split(":", 1)
            args = {}
            if source == "search":
                args = next((dict(h.get("suggested_args") or {}) for h in self.search_results if h["op"] == op), {})
            self.dismiss(Jump(op, args))

    @on(Input.Submitted, "#jump-input")
    def _submitted(self) -> None:
        option = self.query_one("#jump-results", OptionList).highlighted_option
        self._chosen(option.id if option and not option.disabled else None)

    @on(OptionList.OptionSelected, "#jump-results")
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._chosen(event.option.id)

    def action_to_list(self) -> None:
        self.query_one("#jump-results", OptionList).focus()

    def action_cancel(self) -> None:
        self.dismiss(None)
