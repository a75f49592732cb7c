"""Every call of this session and of earlier ones (``gw.recent_calls``): filter, re-open one, batch several, or save one to a collection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.message import Message
from textual.screen import Screen
from textual.widgets import DataTable, Input, Label

from opgate.core.call_history import HistoryFilter, args_text, outcome, outcome_text, when_text

from .._failures import ReportsWorkerFailures
from .._plain import shown
from .._history_columns import COLUMNS, OP, OUTCOME, EndFirstText, cut_text, fit_widths
from .._keys import HISTORY_BINDINGS
from ..widgets import BatchPanel, GatewayBar
from ..widgets.key_footer import KeyFooter
from .allow_write import AllowWriteScreen
from .confirm_run import ConfirmRunScreen

HISTORY_LIMIT = 200
ARGS_WIDTH = 48
OUTCOME_STYLE = {"ok": "", "cancelled": "dim", "failed": "red"}


def row_cells(entry: dict[str, Any], *, in_batch: bool, this_session: bool, names: dict[str, str] | None = None) -> tuple[Text, ...]:
    when = when_text(entry)
    # The person's waiting time is not in it: the call log keeps the call's own time.
    duration = entry.get("duration_ms")
    # The op and arguments are as the caller sent them: text, never markup. Each keeps its whole
    # text; a narrow column draws it cut (see _history_columns).
    cells = tuple(cut_text(shown(cell)) for cell in (
        "●" if in_batch else "",
        when,
        str(entry.get("op") or entry.get("tool_name") or "?"),
        args_text(entry.get("args"), ARGS_WIDTH, names),
        "dry-run" if entry.get("dry_run") else "run",
        outcome_text(entry),
        f"{duration:.1f}" if isinstance(duration, (int, float)) else "",
        "this" if this_session else "older",
    ))
    cells[OUTCOME].stylize(OUTCOME_STYLE[outcome(entry)])
    return (*cells[:OP], EndFirstText(cells[OP].plain), *cells[OP + 1:])


class HistoryScreen(ReportsWorkerFailures, Screen[tuple[str, dict[str, Any]] | None]):
    """Dismisses with ``(op, args)`` to re-open a call in the builder."""

    BINDINGS: ClassVar = HISTORY_BINDINGS

    @dataclass
    class Loaded(Message):
        entries: list[dict[str, Any]]
        names: dict[str, str]

    @dataclass
    class BatchDone(Message):
        results: list[dict[str, Any]]
        steps: list[dict[str, Any]]
        preview: bool = False

    def __init__(self) -> None:
        super().__init__()
        self.all_entries: list[dict[str, Any]] = []
        self.entries: list[dict[str, Any]] = []  # the rows shown: all_entries through the filter
        self.filter = HistoryFilter()
        self.batch: list[dict[str, Any]] = []
        self.names: dict[str, str] = {}  # {id: name} of the entities the calls' ids name
        self._fitted_width = 0  # the table width the columns were last fitted to

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        yield Label("[b]History[/b]  [dim]newest first · Enter re-opens · Space adds to the batch · / filters[/dim]", id="history-title")
        yield Input(placeholder="filter: op:onto.task is:failed is:dry-run words…", id="history-filter")
        yield DataTable(id="history-table", cursor_type="row", zebra_stripes=True)
        yield BatchPanel(id="batch")
        yield KeyFooter(compact=True)

    def on_mount(self) -> None:
        self.app.sync_bar(self.query_one(GatewayBar))  # type: ignore[attr-defined]
        self.query_one(DataTable).focus()
        self.load()

    @work(thread=True, exclusive=True, exit_on_error=False, name="history")
    def load(self) -> None:
        entries = self.app.gateway.recent_calls(HISTORY_LIMIT)  # type: ignore[attr-defined]
        # The log keeps bare ids: the store names the entities they are (what this session's answers named, too).
        try:
            names = self.app.gateway.id_names(*(entry.get("args") for entry in entries))  # type: ignore[attr-defined]
        except Exception:  # noqa: BLE001 - names are a help: the calls are shown without them
            names = {}
        self.post_message(self.Loaded(entries, names))

    @on(Loaded)
    def _loaded(self, event: Loaded) -> None:
        book = self.app.entity_names  # type: ignore[attr-defined]
        book.add(event.names)
        self.names = dict(book.names)
        self.all_entries = event.entries
        self.show_entries(self.filter.apply(event.entries, self.names))

    @on(Input.Changed, "#history-filter")
    def _filter_changed(self, event: Input.Changed) -> None:
        self.filter = HistoryFilter.parse(event.value)
        if self.filter.problems:
            self.notify(self.filter.problems[0], severity="warning", markup=False)
        self.show_entries(self.filter.apply(self.all_entries, self.names))

    @on(Input.Submitted, "#history-filter")
    def _filter_done(self) -> None:
        self.query_one(DataTable).focus()

    def action_filter(self) -> None:
        self.query_one("#history-filter", Input).focus()

    def show_entries(self, entries: list[dict[str, Any]]) -> None:
        """Fill the table with these entries (the newest call first)."""
        self.entries = entries
        table = self.query_one(DataTable)
        row = table.cursor_row
        batched = {id(step["entry"]) for step in self.batch}
        session = self.app.session_traces  # type: ignore[attr-defined]
        rows = [row_cells(entry, in_batch=id(entry) in batched, this_session=entry.get("trace_id") in session, names=self.names) for entry in entries]
        widths = fit_widths(self._table_width(len(rows)), rows)
        self._fitted_width = table.size.width
        table.clear(columns=True)  # columns too, so their widths fit these rows only
        for label, width in zip(COLUMNS, widths):
            table.add_column(label, width=width)
        for index, cells in enumerate(rows):
            table.add_row(*cells, key=str(index))
        if entries:
            table.move_cursor(row=min(max(row, 0), len(entries) - 1))

    def _table_width(self, rows: int) -> int:
        """The columns the table's cells can use: its width, less the scrollbar when the rows will scroll."""
        table = self.query_one(DataTable)
        scrolls = rows + 1 > table.size.height  # the header takes a row
        return table.size.width - (table.styles.scrollbar_size_vertical if scrolls else 0)

    def on_resize(self) -> None:
        self.call_after_refresh(self._refit)  # after the layout, when the table has its new size

    def _refit(self) -> None:
        if self.entries and self.query_one(DataTable).size.width != self._fitted_width:
            self.show_entries(self.entries)

    def _current(self) -> dict[str, Any] | None:
        table = self.query_one(DataTable)
        if not self.entries or table.cursor_row < 0 or table.cursor_row >= len(self.entries):
            return None
        return self.entries[table.cursor_row]

    # -- actions ----------------------------------------------------------------------------

    def action_reopen(self) -> None:
        entry = self._current()
        if entry is None:
            return
        if not entry.get("op") or not self.app.gateway.is_visible(entry["op"]):  # type: ignore[attr-defined]
            self.notify(f"{entry.get('op') or 'this call'} is not an op of the current context", severity="warning", markup=False)
            return
        self.dismiss((entry["op"], dict(entry.get("args") or {})))

    @on(DataTable.RowSelected)
    def _row_selected(self) -> None:
        self.action_reopen()

    def action_save_call(self) -> None:
        """Save the highlighted call to a collection, expecting the outcome it had."""
        entry = self._current()
        if entry is None or not entry.get("op"):
            return
        if entry.get("args_truncated"):
            self.notify("This call's arguments were too long to keep whole in the log, so it cannot be saved from here.", severity="warning")
            return
        answered = {"ok": True} if entry.get("ok") else None if outcome(entry) == "cancelled" else {"ok": False, "error": {"code": entry.get("code")}}
        self.app.explorer.ask_to_save(entry["op"], dict(entry.get("args") or {}), answered)  # type: ignore[attr-defined]

    def action_toggle_batch(self) -> None:
        entry = self._current()
        if entry is None or not entry.get("op"):
            return
        kept = [s for s in self.batch if s["entry"] is not entry]
        self.batch = kept if len(kept) != len(self.batch) else [*self.batch, {"entry": entry, "op": entry["op"], "args": dict(entry.get("args") or {})}]
        panel = self.query_one(BatchPanel)
        panel.results = []
        panel.names = self.names
        panel.steps = self.batch
        table = self.query_one(DataTable)
        table.update_cell_at((table.cursor_row, 0), "●" if any(s["entry"] is entry for s in self.batch) else "")

    def action_clear_batch(self) -> None:
        self.batch = []
        panel = self.query_one(BatchPanel)
        panel.results, panel.steps = [], []
        self.show_entries(self.filter.apply(self.all_entries, self.names))

    def action_dry_run_batch(self) -> None:
        self._batch(dry_run=True)

    def action_run_batch(self) -> None:
        self._batch(dry_run=False)

    def _batch(self, *, dry_run: bool) -> None:
        if not self.batch:
            self.notify("The batch is empty: Space adds the highlighted call.", severity="warning")
            return
        gateway = self.app.gateway  # type: ignore[attr-defined]
        steps = [{"tool": "exec", "args": {"op": s["op"], "args": s["args"], "dry_run": dry_run}} for s in self.batch]
        writes = [s["op"] for s in self.batch if (r := gateway.registry.get(s["op"])) is not None and r.kind == "write"]
        if writes and not dry_run and not gateway.allow_write:
            def answered(allow: bool | None) -> None:
                if allow:
                    self.app.set_allow_write(True, announce=False)  # type: ignore[attr-defined]
                    self._preview_then_run(steps)
            self.app.push_screen(AllowWriteScreen(", ".join(sorted(set(writes)))), answered)
            return
        if writes and not dry_run:
            self._preview_then_run(steps)
            return
        self.run_batch(steps)

    def _preview_then_run(self, steps: list[dict[str, Any]]) -> None:
        """A real batch with writes is dry-run first; the person sees every diff before anything is written."""
        previews = [{"tool": "exec", "args": {**step["args"], "dry_run": True}} for step in steps]
        self.run_batch(steps, preview_steps=previews)

    @work(thread=True, exclusive=True, exit_on_error=False, name="batch")
    def run_batch(self, steps: list[dict[str, Any]], preview_steps: list[dict[str, Any]] | None = None) -> None:
        gateway = self.app.gateway  # type: ignore[attr-defined]
        if preview_steps is not None:
            self.post_message(self.BatchDone(gateway.batch(preview_steps), steps, preview=True))
        else:
            self.post_message(self.BatchDone(gateway.batch(steps), steps))

    @on(BatchDone)
    def _batch_answered(self, event: BatchDone) -> None:
        (self._preview_done if event.preview else self._batch_done)(event)

    def _preview_done(self, event: BatchDone) -> None:
        diff: dict[str, list[Any]] = {}
        for result in event.results:
            for key, entries in ((result.get("meta") or {}).get("diff") or {}).items():
                diff.setdefault(key, []).extend(entries)
        failed = [r for r in event.results if not r.get("ok")]
        summary = f"{len(event.steps)} steps; the dry-run diffs of all of them together" + (f"; {len(failed)} step(s) failed in the dry-run" if failed else "")
        preview = {"result": [r.get("result") if r.get("ok") else r.get("error") for r in event.results], "meta": {"diff": diff}}

        def answered(run: bool | None) -> None:
            if run:
                self.run_batch(event.steps)
            else:
                self.notify("Batch not run: nothing was written.", severity="warning")

        self.app.push_screen(ConfirmRunScreen("batch", {"steps": len(event.steps)}, preview, summary=summary), answered)

    def _batch_done(self, event: BatchDone) -> None:
        self.app.remember(*event.results)  # type: ignore[attr-defined]
        self.query_one(BatchPanel).results = event.results
        failed = sum(1 for r in event.results if not r.get("ok"))
        self.notify(f"Batch: {len(event.results) - failed} ok, {failed} failed", severity="error" if failed else "information")
        self.load()

    def action_refresh(self) -> None:
        self.load()

    def action_close(self) -> None:
        self.dismiss(None)
