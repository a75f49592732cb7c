"""What the REPL prints: envelopes (through the CLI's views), lists as tables, listings and problems."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from opgate.views import render_envelope
from opgate.views._envelope import rich_part
from opgate.views._envelope_parts import envelope_parts, shown_controls, writes_are_off
from opgate.core.help import HelpNode

CELL_WIDTH = 48
KIND_STYLE = {"read": "green", "write": "yellow"}


def _shown(text: Any, style: str = "") -> Text:
    """Catalogue, stored or typed text as it is: never markup, and its control characters escaped, never sent (``\\x1b``)."""
    return Text(shown_controls(str(text)), style=style)


def _cell(value: Any) -> Text:
    # Stored values are text, never markup: a title holding [/] is shown as it is.
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return _shown(text if len(text) <= CELL_WIDTH else text[: CELL_WIDTH - 1] + "…")


def _is_rows(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(row, dict) for row in value)


def split_rows(result: Any) -> tuple[str | None, list[dict[str, Any]], Any] | None:
    """The list of records in a result, its key and the rest of the result; ``None`` when it has none."""
    if _is_rows(result):
        return None, result, None
    if isinstance(result, dict):
        for key, value in result.items():
            if _is_rows(value):
                return key, value, {k: v for k, v in result.items() if k != key}
    return None


def rows_table(rows: list[dict[str, Any]], title: str | None = None) -> Table:
    columns = list(dict.fromkeys(key for row in rows for key in row))
    table = Table(title=_shown(title) if title else None, title_justify="left", show_edge=False, header_style="bold")
    for column in columns:
        table.add_column(_shown(column), no_wrap=column == "id")
    for row in rows:
        table.add_row(*(_cell(row[c]) if c in row and row[c] is not None else "" for c in columns))
    return table


# An error is at most this many lines unless the person asks for more (--verbose, set verbose on).
SHORT_ERROR_LINES = 3
ENABLE_WRITES = "set writes on"  # how the REPL turns writes on, where the command line says --allow-write
SHOWN_FIELD_ERRORS = 2


def short_error(envelope: dict[str, Any]) -> RenderableType:
    """``CODE op: message`` (a refusal's count of bad fields), the first field errors, where to read more: three lines.

    Only a refusal of the arguments is headed by its count; another error that names a field (a handler's
    CONFLICT) keeps its own message, which says what went wrong.
    """
    error = envelope.get("error") or {}
    field_errors = (error.get("details") or {}).get("field_errors") or []
    if field_errors and error.get("code") == "VALIDATION_ERROR":
        count = len(field_errors)
        message = f"{count} problem{'s' if count > 1 else ''} with the arguments"
    else:
        message = str(error.get("message", "")).splitlines()[0] if error.get("message") else ""
    lines = [Text.assemble((f"{error.get('code', 'ERROR')} ", "bold red"), (shown_controls(str(envelope.get("op", ""))), "bold"), f": {shown_controls(message)}")]
    if field_errors:
        shown = "; ".join(f"{row.get('field')}: {row.get('message')}" for row in field_errors[:SHOWN_FIELD_ERRORS])
        more = len(field_errors) - SHOWN_FIELD_ERRORS
        lines.append(_shown(f"  {shown}" + (f" (+{more} more)" if more > 0 else ""), style="red"))
    if writes_are_off(envelope):
        lines.append(Text(f"  {ENABLE_WRITES} lets it write · dry shows the diff first", style="yellow"))
    where = f"help {error['help_path']}" if error.get("help_path") else "help"
    lines.append(Text(f"  {where} · set verbose on shows the details", style="dim"))
    return Group(*lines[:SHORT_ERROR_LINES])


def render_call(envelope: dict[str, Any], format: str, *, verbose: bool = False) -> RenderableType:
    """An exec envelope: status, result, diff and warnings; in table format a list result as a table.

    A failure is :func:`short_error` unless ``verbose``.
    """
    if not envelope.get("ok") and not verbose:
        return short_error(envelope)
    found = split_rows(envelope.get("result")) if format == "table" and envelope.get("ok") else None
    if found is None:
        return render_envelope(envelope, help_command="help", enable_writes=ENABLE_WRITES)
    key, rows, rest = found
    parts = envelope_parts({**envelope, "result": rest}, help_command="help", enable_writes=ENABLE_WRITES)
    if not rest:
        del parts[1]  # the status line, then the result's JSON: here the table is the whole result
    title = key or f"{len(rows)} row{'' if len(rows) == 1 else 's'}"
    return Group(*map(rich_part, parts), rows_table(rows, title=title))


def listing(node: HelpNode) -> Table:
    """``ls``: the groups and ops directly under a node."""
    table = Table(show_edge=False, show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column("name", no_wrap=True)
    table.add_column("kind", no_wrap=True)
    table.add_column("summary")
    for name in sorted(node.children):
        child = node.children[name]
        if child.children:
            table.add_row(_shown(f"{name}.", style="bold cyan"), Text(f"{child.total} op{'' if child.total == 1 else 's'}", style="dim"), Text(f"{child.reads} read, {child.writes} write", style="dim"))
        if child.record is not None:
            record = child.record
            badges = " ".join(b for b in record.badges if b not in ("read", "write"))
            kind = Text(record.kind, style=KIND_STYLE.get(record.kind, ""))
            if badges:
                kind.append(f" {badges}", style="magenta")
            table.add_row(_shown(name), kind, _shown(record.summary))
    return table


def search_results(payload: dict[str, Any]) -> RenderableType:
    if not payload.get("ok"):
        error = payload.get("error") or {}
        return problem(error.get("message", "search failed"), error.get("hints") or ())
    results = payload.get("results") or []
    if not results:
        return Text("no ops match; try other words, or `ls` to browse", style="yellow")
    table = Table(show_edge=False, header_style="bold")
    for column in ("op", "kind", "confidence", "summary"):
        table.add_column(column, no_wrap=column == "op")
    for hit in results:
        suggested = " ".join(f"{k}={v}" for k, v in (hit.get("suggested_args") or {}).items())
        op = Text.assemble((shown_controls(hit["op"]), "cyan"), (shown_controls(f" {suggested}"), "green") if suggested else "")
        table.add_row(op, Text(hit["kind"], style=KIND_STYLE.get(hit["kind"], "")), f"{hit.get('confidence', 0):.2f}", _shown(hit.get("summary", "")))
    return table


def problem(message: str, hints: Iterable[str] = (), help_path: str | None = None) -> RenderableType:
    """A failure of the REPL itself, with the closest names and where to read more."""
    parts: list[RenderableType] = [_shown(message, style="bold red")]
    hints = list(hints)
    if hints:
        parts.append(_shown("closest: " + ", ".join(hints), style="yellow"))
    if help_path is not None:
        parts.append(_shown(f"help: help {help_path}" if help_path else "help: help", style="dim"))
    return Group(*parts)


def numbered(lines: list[tuple[int, str]]) -> Table:
    table = Table(show_edge=False, show_header=False, box=None, padding=(0, 2, 0, 0))
    table.add_column("n", justify="right", style="dim")
    table.add_column("line")
    for number, line in lines:
        table.add_row(str(number), _shown(line))
    return table
