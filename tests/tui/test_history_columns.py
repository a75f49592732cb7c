"""The history table's column widths and cut cells (no Textual): what gives way, in which order, on a narrow screen."""

from __future__ import annotations

from rich.console import Console
from rich.text import Text

from opgate.tui._history_columns import ARGS, ARGS_MIN, COLUMNS, OP, OP_MIN, OUTCOME, OUTCOME_MIN, EndFirstText, cut_text, fit_widths, keep_end

ROW = (
    cut_text(""), cut_text("03-01 09:00:00"), EndFirstText("onto.document.tree.move"), cut_text("document_id=5000…0002 new_parent_id=5000…0001"),
    cut_text("dry-run"), cut_text("VALIDATION_ERROR"), cut_text("245.1"), cut_text("older"),
)


def room(widths) -> int:
    return sum(width + 2 for width in widths)


def drawn(cell: Text, width: int) -> str:
    """The cell as a DataTable column ``width`` wide draws it (one line)."""
    console = Console(width=width, color_system=None)
    lines = console.render_lines(cell, console.options.update_width(width), pad=False)
    return "".join(segment.text for segment in lines[0])


def test_a_wide_table_shows_every_column_whole():
    widths = fit_widths(200, [ROW])
    assert widths == [1] + [max(len(h), len(c.plain)) for h, c in zip(COLUMNS[1:], ROW[1:])]


def test_the_arguments_give_way_first_then_the_op_then_the_outcome():
    natural = fit_widths(200, [ROW])
    shrunk = fit_widths(room(natural) - 10, [ROW])
    assert shrunk[ARGS] == natural[ARGS] - 10 and shrunk[OP] == natural[OP]
    at_80 = fit_widths(78, [ROW])  # the table's width on an 80-column screen
    assert at_80[ARGS] == 0 and at_80[OP] == OP_MIN and at_80[OUTCOME] == natural[OUTCOME]
    assert room(at_80) == 78
    some_args = fit_widths(room(natural) - (natural[ARGS] - ARGS_MIN), [ROW])
    assert some_args[ARGS] == ARGS_MIN and some_args[OP] == natural[OP]
    at_60 = fit_widths(60, [ROW])
    assert at_60[OP] == OP_MIN and at_60[OUTCOME] == OUTCOME_MIN


def test_a_cut_op_keeps_its_end_and_other_cells_their_start():
    assert drawn(EndFirstText("onto.document.tree.move"), 18) == "…ocument.tree.move"
    assert drawn(EndFirstText("onto.task.create"), 14) == "…task.create", "a stub of a segment is dropped"
    assert drawn(EndFirstText("onto.task.create"), 13) == "…task.create", "not '….task.create'"
    assert drawn(EndFirstText("onto.task.create"), 16) == "onto.task.create"
    assert drawn(cut_text("VALIDATION_ERROR"), 10) == "VALIDATIO…"
    assert keep_end(Text("abcdefghijklmnopqrstuvwxyz"), 10).plain == "…rstuvwxyz"
    assert str(EndFirstText("onto.document.tree.move")) == "onto.document.tree.move", "the cell keeps its whole text"


def test_a_cut_cell_keeps_its_style_and_markup_stays_text():
    cut = keep_end(Text("[red]onto.x.y[/red]", style="bold"), 8)
    assert cut.plain.startswith("…") and cut.cell_len <= 8 and cut.style == "bold"
    assert drawn(EndFirstText("[b]x[/b].y.zzzzzzzz"), 8) == "…zzzzzzz"
