"""How wide each column of the history table is, so that a narrow terminal still shows what matters.

The time, mode, duration and session always stay whole. When the row is too
wide, the arguments give way first (the builder shows them in full): down to
``ARGS_MIN``, then out of sight (their column is drawn zero wide); then the
op path, which keeps its end (``…task.create``: the entity and the action),
down to ``OP_MIN``; last the outcome, down to ``OUTCOME_MIN``. Before this,
the arguments kept their natural width and pushed the outcome off an
80-column screen.

Cells keep their whole text (``str(cell)`` and ``DataTable.get_row_at`` give
it); only what is drawn is cut, with an ellipsis.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions
from rich.segment import Segment
from rich.text import Text

COLUMNS = ("", "when (UTC)", "op", "args", "mode", "outcome", "ms", "session")
MARK, WHEN, OP, ARGS, MODE, OUTCOME, DURATION, SESSION = range(len(COLUMNS))
CELL_PADDING = 2  # a DataTable pads each cell by one column on either side
ARGS_MIN = 8  # narrower, "proj…" says nothing: the column goes out of sight instead
OP_MIN = 12
OUTCOME_MIN = 10
ELLIPSIS = "…"
SHORT_FRAGMENT = 3  # "…o.task.create" loses its "o.": a stub of a segment says nothing


def fit_widths(available: int, rows: Sequence[Sequence[Text]]) -> list[int]:
    """The content width of each column for a table ``available`` columns wide.

    Every column gets its natural width (its header or its widest cell) when
    the whole row fits; otherwise the columns give way in the order the module
    docstring says. Only below all the floors does the table scroll sideways.
    """
    widths = [cell_len(label) for label in COLUMNS]
    for row in rows:
        for index, cell in enumerate(row):
            widths[index] = max(widths[index], cell.cell_len)
    widths[MARK] = 1
    for column, floor in ((ARGS, ARGS_MIN), (ARGS, 0), (OP, OP_MIN), (OUTCOME, OUTCOME_MIN)):
        over = sum(widths) + CELL_PADDING * len(widths) - available
        if over <= 0:
            break
        widths[column] = 0 if floor == 0 else widths[column] - min(over, max(0, widths[column] - floor))
    return widths


def cut_text(text: str) -> Text:
    """A cell drawn with a trailing ellipsis when its column is narrower than it."""
    return Text(text, no_wrap=True, overflow="ellipsis")


class EndFirstText(Text):
    """A cell drawn with a leading ellipsis when its column is narrower than it: an op path keeps its end."""

    def __init__(self, text: str, **options) -> None:
        super().__init__(text, **{"no_wrap": True, **options})

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        drawn = keep_end(self, options.max_width)
        if drawn is self:
            yield from super().__rich_console__(console, options)
        else:
            yield from drawn.__rich_console__(console, options)


def keep_end(cell: Text, width: int) -> Text:
    """``cell`` cut to ``width`` columns from the start, behind an ellipsis (whole when it fits)."""
    if cell.cell_len <= width:
        return cell
    if width <= 1:
        return Text(ELLIPSIS[:width], style=cell.style)
    tail = Text(cell.plain, style=cell.style)[len(cell.plain) - (width - 1):]
    while tail.cell_len > width - 1:  # wide characters take two columns
        tail = tail[1:]
    cut_at = len(cell.plain) - len(tail.plain)
    fragment = tail.plain.find(".")
    if cell.plain[cut_at - 1] != "." and 0 <= fragment <= SHORT_FRAGMENT and fragment < len(tail.plain) - 1:
        tail = tail[fragment + 1:]
    return Text(ELLIPSIS, style=cell.style, no_wrap=True) + tail
