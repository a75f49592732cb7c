"""A help table laid out as rich lays it out on a console without colours, for printable ASCII cells.

rich (13 to 15) sizes a table's columns from each cell's longest word and
longest line, shrinks the widest wrappable columns first when the table is
too wide, wraps each cell at spaces and pads it one space each side; a table
without its outer edge joins the cells with the heavy-head box's verticals
and rules the header off. This follows those steps for the help tables
(``show_edge=False``, the default box and padding) and answers None whenever
rich would do more: cut a word with an ellipsis, read markup or emoji codes,
or lay out characters wider than one cell. tests/unit/test_plain_help.py
compares it with rich on real and random tables.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ._help_parts import TableBlock

_WORD = re.compile(r"\s*\S+\s*")
_TRAILING_SPACE = re.compile(r"\s+$")
_MARKUP_OR_EMOJI = re.compile(r"\[|:\S*:")
_HEAD_DIVIDER, _ROW_DIVIDER, _HEAD_RULE, _HEAD_CROSS = "┃", "│", "━", "╇"
_PADDING = 2  # one space each side of a cell


def _simple(text: object) -> bool:
    return isinstance(text, str) and text.isascii() and text.isprintable()


def _breaks(text: str, width: int, fold: bool) -> list[int] | None:
    """rich's divide_line for one-cell characters; None where a word would be cropped (no fold)."""
    breaks: list[int] = []
    offset = 0
    for match in _WORD.finditer(text):
        start, word = match.start(), match.group(0)
        length = len(word.rstrip())
        if width - offset >= length:
            offset += len(word)
        elif length > width:
            if not fold:
                return None  # rich would crop the word and end it with an ellipsis
            pieces = [word[i:i + width] for i in range(0, len(word), width)]
            for index, piece in enumerate(pieces):
                if start:
                    breaks.append(start)
                if index == len(pieces) - 1:
                    offset = len(piece)
                else:
                    start += len(piece)
        elif offset and start:
            breaks.append(start)
            offset = len(word)
    return breaks


def _wrap(text: str, width: int, *, justify: str = "left", no_wrap: bool = False, fold: bool = False) -> list[str] | None:
    """The lines of ``Text(text).wrap(width, justify, ...)``, each padded to ``width``; None where rich would crop."""
    if width < 1:
        return None
    if no_wrap:
        lines = [text]
    else:
        breaks = _breaks(text, width, fold)
        if breaks is None:
            return None
        lines = [text[start:end] for start, end in zip([0, *breaks], [*breaks, len(text)], strict=True)]
        lines = [_strip_excess(line, width) for line in lines]
    out = []
    for line in lines:
        if justify == "right":
            line = line.rstrip()
        if len(line) > width:
            return None
        out.append(line.rjust(width) if justify == "right" else line.ljust(width))
    return out


def _strip_excess(line: str, width: int) -> str:
    """Text.rstrip_end: trailing space beyond ``width`` goes."""
    excess = len(line) - width
    trailing = _TRAILING_SPACE.search(line)
    if excess > 0 and trailing:
        return line[: len(line) - min(len(trailing.group(0)), excess)]
    return line


def _measure(texts: list[str], width: int) -> tuple[int, int]:
    """A column's (minimum, maximum) width with padding, as Table._measure_column measures it within ``width``."""
    if width < 1:
        return 0, 0
    minimums, maximums = [], []
    for text in texts:
        if width - _PADDING < 1:
            low = high = width
        else:
            words = text.split()
            longest_line = len(text)
            low, high = (max(map(len, words)) if words else longest_line), longest_line
            low, high = min(low, width - _PADDING), min(high, width - _PADDING)
            if high < 1:
                low = high = 0
            low = min(max(0, low), high)
            low, high = min(low + _PADDING, width), min(high + _PADDING, width)
        minimums.append(low)
        maximums.append(high)
    return min(max(minimums), width), min(max(maximums), width)


def _ratio_reduce(total: int, ratios: list[int], maximums: list[int], values: list[int]) -> list[int]:
    ratios = [ratio if most else 0 for ratio, most in zip(ratios, maximums, strict=True)]
    total_ratio = sum(ratios)
    if not total_ratio:
        return values[:]
    remaining, result = total, []
    for ratio, most, value in zip(ratios, maximums, values, strict=True):
        if ratio and total_ratio > 0:
            distributed = min(most, round(ratio * remaining / total_ratio))
            result.append(value - distributed)
            remaining -= distributed
            total_ratio -= ratio
        else:
            result.append(value)
    return result


def _collapse(widths: list[int], wrappable: list[bool], most: int) -> list[int]:
    """Table._collapse_widths: shave the widest wrappable columns down to the next widest, until the table fits."""
    excess = sum(widths) - most
    if not any(wrappable):
        return widths
    while sum(widths) and excess > 0:
        widest = max(w for w, wraps in zip(widths, wrappable, strict=True) if wraps)
        second = max(w if wraps and w != widest else 0 for w, wraps in zip(widths, wrappable, strict=True))
        ratios = [1 if (w == widest and wraps) else 0 for w, wraps in zip(widths, wrappable, strict=True)]
        if not any(ratios) or not widest - second:
            break
        widths = _ratio_reduce(excess, ratios, [min(excess, widest - second)] * len(widths), widths)
        excess = sum(widths) - most
    return widths


def _widths(columns: list[list[str]], wrappable: list[bool], most: int) -> list[int]:
    widths = [_measure(texts, most)[1] or 1 for texts in columns]
    if sum(widths) > most:
        widths = _collapse(widths, wrappable, most)
        if sum(widths) > most:
            widths = _ratio_reduce(sum(widths) - most, [1] * len(widths), widths, widths)
        widths = [_measure(texts, width)[1] or 0 for texts, width in zip(columns, widths, strict=True)]
    return widths


def table_lines(table: TableBlock, width: int) -> list[str] | None:
    """The table's lines as rich prints them ``width`` columns wide without colours, or None when only rich can say."""
    rows = [[column.header for column in table.columns]]
    for row in table.rows:
        rows.append([cell if isinstance(cell, str) else cell.plain() for cell in row])
    # A str cell, a header and the title are read as markup by rich; catalogue text comes as Lines.
    marked_up = [*(cell for row in table.rows for cell in row if isinstance(cell, str)), *(column.header for column in table.columns), table.title or ""]
    if not all(_simple(text) for row in rows for text in row) or any(_MARKUP_OR_EMOJI.search(text) for text in marked_up) or not _simple(table.title or ""):
        return None
    if any(column.justify not in ("left", "right") for column in table.columns):
        return None
    dividers = len(table.columns) - 1
    widths = _widths([list(texts) for texts in zip(*rows, strict=True)], [not column.no_wrap for column in table.columns], width - dividers)
    table_width = sum(widths) + dividers
    if min(widths) < _PADDING + 1 or table_width > width:
        return None
    lines: list[str] = []
    if table.title is not None:
        title = _wrap(table.title, table_width, fold=True)
        if title is None:
            return None
        lines += title
    for index, row in enumerate(rows):
        cells = []
        for text, column, cell_width in zip(row, table.columns, widths, strict=True):
            wrapped = _wrap(text, cell_width - _PADDING, justify=column.justify, no_wrap=column.no_wrap)
            if wrapped is None:
                return None
            cells.append([f" {line} " for line in wrapped])
        height = max(map(len, cells))
        cells = [cell + [" " * cell_width] * (height - len(cell)) for cell, cell_width in zip(cells, widths, strict=True)]
        divider = _HEAD_DIVIDER if index == 0 else _ROW_DIVIDER
        lines += [divider.join(cell[line] for cell in cells) for line in range(height)]
        if index == 0:
            lines.append(_HEAD_CROSS.join(_HEAD_RULE * cell_width for cell_width in widths))
    return lines
