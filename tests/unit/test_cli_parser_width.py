"""opgate/cli/_parser.py finds the terminal's width as shutil.get_terminal_size does."""

from __future__ import annotations

import shutil

import pytest

from opgate.cli._parser import terminal_columns


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "abc", "1", "57", "200"])
def test_the_width_is_shutils(columns, monkeypatch):
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
