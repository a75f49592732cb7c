"""Help printed without rich into a pipe is byte for byte what rich prints there.

``opgate help`` writes ``plain_text(help_parts(payload), width)`` when rich
would write no colours; where that answers None, rich renders. Both are
checked against rich itself: every page of the built-in catalogue, and
random tables.
"""

from __future__ import annotations

import io
import random

import pytest
from rich.console import Console

from opgate.core import Gateway
from opgate.views import render_help
from opgate.views._envelope_parts import Line, plain_text
from opgate.views._help_parts import Column, TableBlock, help_parts
from opgate.views._help import _table

WIDTHS = (12, 20, 33, 40, 60, 80, 100, 160)


def _rich_prints(renderable, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False, soft_wrap=False, _environ={}).print(renderable)
    return out.getvalue()


def _pages(gateway: Gateway) -> list[str]:
    paths = {""}
    for op in gateway.registry.ops:
        parts = op.split(".")
        paths.update(".".join(parts[:n]) for n in range(1, len(parts) + 1))
    return sorted(paths)


@pytest.fixture(scope="module")
def builtin() -> Gateway:
    return Gateway(call_log=False)


def test_every_builtin_page_is_what_rich_prints(builtin):
    shown = 0
    for path in [*_pages(builtin), "nope", "onto.tsk"]:
        for options in ({}, {"format": "full", "include_schemas": True}):
            payload = builtin.help(path, **options)
            for width in WIDTHS:
                text = plain_text(help_parts(payload), width)
                if text is not None:
                    shown += 1
                    assert text == _rich_prints(render_help(payload), width), (path, options, width)
    assert shown > 100  # most pages are printed without rich


def test_the_root_page_is_printed_without_rich(builtin):
    text = plain_text(help_parts(builtin.help("")), 80)
    assert text is not None and text.startswith("opgate: ") and "┃" in text


def _random_table(rng: random.Random) -> TableBlock:
    def words(most: int) -> str:
        return " ".join("".join(rng.choice("abcdefgh") for _ in range(rng.choice([1, 2, 3, 5, 8, 13, 21]))) for _ in range(rng.randint(0, most)))

    columns = tuple(Column(words(1) or "c", justify=rng.choice(["left", "right"]), no_wrap=rng.random() < 0.2) for _ in range(rng.randint(1, 5)))
    rows = tuple(
        tuple(str(rng.randint(0, 10 ** rng.randint(0, 6))) if rng.random() < 0.2 else Line("", ((words(12) + rng.choice(["", " ", "  "]), ""),)) for _ in columns)
        for _ in range(rng.randint(0, 6))
    )
    return TableBlock(columns, rows, title=rng.choice([None, f"opgate: {rng.randint(1, 999)} ops", words(6) or "t"]))


def test_random_tables_are_laid_out_as_rich_lays_them_out():
    rng = random.Random(16)
    shown = wrapped = 0
    for _ in range(600):
        table = _random_table(rng)
        width = rng.choice(WIDTHS)
        text = plain_text([table], width)
        if text is not None:
            shown += 1
            wrapped += text.count("\n") > len(table.rows) + 2 + (table.title is not None)
            assert text == _rich_prints(_table(table), width), (table, width)
    assert shown > 150 and wrapped > 50  # columns shrunk and cells wrapped, not only tables that fit


def test_what_rich_would_change_is_left_to_it():
    def table(cell: str, title: str | None = None, header: str = "h") -> TableBlock:
        return TableBlock((Column(header),), ((Line("", ((cell, ""),)),),), title=title)

    assert plain_text([table("plain words")], 80) is not None
    assert plain_text([table("Café")], 80) is None  # wider characters are rich's to measure
    assert plain_text([table("a\tb")], 80) is None
    assert plain_text([table("x", title="[bold]t[/]")], 80) is None  # a title is markup to rich
    assert plain_text([table("x", title="an :emoji: code")], 80) is None
    assert plain_text([TableBlock((Column("op", no_wrap=True),), ((Line("", (("a" * 50, ""),)),),))], 20) is None  # an ellipsis


def test_an_op_page_is_printed_without_rich(builtin):
    """Its usage line is wider than the terminal and its guidance has bullets: both are wrapped as rich wraps them."""
    payload = builtin.help("onto.task.list")
    for width in (80, 100):
        text = plain_text(help_parts(payload), width)
        assert text is not None and "•" in text
        assert text == _rich_prints(render_help(payload), width)


def test_random_lines_are_wrapped_as_rich_wraps_them():
    rng = random.Random(11)
    pool = ["a", "task", "onto.task.list", "[x]", "state_key=todo|in_progress|blocked|done", "•", "-" * 30, "x" * 70, ":emoji:", "é", "\t"]
    shown = 0
    for _ in range(600):
        text = "".join(rng.choice(pool) + rng.choice([" ", " ", "  ", "", "\n", " \n "]) for _ in range(rng.randint(0, 14)))
        line = Line("", ((text, ""),)) if rng.random() < 0.5 else Line("bold", ((text[: len(text) // 2], "cyan"), (text[len(text) // 2 :], "")))
        width = rng.choice(WIDTHS)
        printed = plain_text([line], width)
        if printed is not None:
            shown += 1
            assert printed == _rich_prints(render_help_parts([line]), width), (text, width)
    assert shown > 150  # tabs and wider characters are left to rich


def render_help_parts(parts):
    from rich.console import Group

    from opgate.views._help import _rich

    return Group(*map(_rich, parts))
