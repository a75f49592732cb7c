"""Rendering help payloads for people, with rich.

What is shown comes from ``_help_parts.py``; here each part becomes a rich
renderable. Every text comes from a catalogue (names, summaries,
descriptions, enum values) and is shown as plain text: a table cell given a
``str`` would read ``[/]`` or ``[link=...]`` as Rich markup, so catalogue
cells are Lines, made into :class:`Text` (only numbers are given as str).
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table

from ._envelope import rich_part
from ._help_parts import HelpPart, TableBlock, help_parts


def _table(block: TableBlock) -> Table:
    table = Table(title=block.title, title_justify="left", show_edge=False) if block.title is not None else Table(show_edge=False)
    for column in block.columns:
        table.add_column(column.header, justify=column.justify, style=column.style, no_wrap=column.no_wrap)
    for row in block.rows:
        table.add_row(*(cell if isinstance(cell, str) else rich_part(cell) for cell in row))
    return table


def _rich(part: HelpPart) -> RenderableType:
    return _table(part) if isinstance(part, TableBlock) else rich_part(part)


def render_help(payload: dict[str, Any], *, help_command: str = "opgate help") -> RenderableType:
    return Group(*map(_rich, help_parts(payload, help_command=help_command)))
