"""The report of a collection run: every expectation of every call, passed or failed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.screen import Screen
from textual.widgets import DataTable, Footer, Label

from ..widgets import GatewayBar

COLUMNS = ("call", "op", "how", "expectation", "", "found")


@dataclass(frozen=True)
class ReportRow:
    """One table row: which call (position in the report) and the cells."""

    call_index: int
    cells: tuple[Text, ...]


def report_rows(report: Any) -> list[ReportRow]:
    """One row per expectation; the call's name, op and how it ran on its first row only."""
    rows = []
    for index, call in enumerate(report.calls):
        for n, check in enumerate(call.checks):
            first = n == 0
            mark = Text("pass", "green") if check.passed else Text("FAIL", "bold red")
            # Everything but the mark is data from files and answers: plain text, never markup.
            rows.append(ReportRow(index, (
                Text(call.call.file_name.removesuffix(".toml") if first else ""),
                Text(call.call.op if first else ""),
                Text(call.how if first else ""),
                Text(check.what),
                mark,
                Text(check.detail),
            )))
    return rows


def report_title(report: Any) -> Text:
    passed, failed = report.counts
    where = "on a scratch copy of the workspace (nothing was written)" if report.mode == "dry-run" else "on the workspace"
    return Text.assemble((f"{report.collection.name}", "bold"), f": {report.mode} {where} · ", (f"{passed} passed", "green"), ", ", (f"{failed} failed", "red" if failed else ""))


class RunReportScreen(Screen[int | None]):
    """Dismisses with the position (in the report) of the call to show in the Result tab, or None."""

    BINDINGS: ClassVar = [
        Binding("enter", "show_call", "Show answer", tooltip="Show this call's envelope in the Result tab", id="opgate.report.show"),
        Binding("escape", "close", "Back", tooltip="Back to the explorer", id="opgate.report.back"),
    ]

    def __init__(self, report: Any):
        super().__init__()
        self.report = report
        self.rows = report_rows(report)

    def compose(self) -> ComposeResult:
        yield GatewayBar()
        yield Label(report_title(self.report), id="report-title")
        yield DataTable(id="report-table", cursor_type="row", zebra_stripes=True)
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.app.sync_bar(self.query_one(GatewayBar))  # type: ignore[attr-defined]
        table = self.query_one(DataTable)
        table.add_columns(*COLUMNS)
        for row in self.rows:
            table.add_row(*row.cells)
        table.focus()

    def action_show_call(self) -> None:
        table = self.query_one(DataTable)
        if 0 <= table.cursor_row < len(self.rows):
            self.dismiss(self.rows[table.cursor_row].call_index)

    @on(DataTable.RowSelected)
    def _selected(self) -> None:
        self.action_show_call()

    def action_close(self) -> None:
        self.dismiss(None)
