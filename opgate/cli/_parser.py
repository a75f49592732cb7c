"""argparse's parser and help formatter, with the terminal's width found without importing shutil.

argparse makes a help formatter for every argument it adds (to check its
metavar), and the formatter asks ``shutil.get_terminal_size`` for the width:
importing shutil (and zlib, bz2 and lzma with it) cost every command line
about 7 million instructions (docs/performance.md). The width here is found
by the same rule: ``$COLUMNS`` when a positive number, else the terminal of
``sys.__stdout__``, else 80.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any, NoReturn

__all__ = ["CommandParser", "terminal_columns"]


def terminal_columns() -> int:
    """What ``shutil.get_terminal_size().columns`` gives."""
    try:
        columns = int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns
        except (AttributeError, ValueError, OSError):
            columns = 0
    return columns or 80


class _HelpFormatter(argparse.HelpFormatter):
    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None) -> None:
        super().__init__(prog, indent_increment, max_help_position, terminal_columns() - 2 if width is None else width)


class CommandParser(argparse.ArgumentParser):
    """An ArgumentParser whose formatter finds the width as above; its subcommands' parsers are of this class too."""

    def __init__(self, *args: Any, formatter_class: type[argparse.HelpFormatter] = _HelpFormatter, **kwargs: Any) -> None:
        super().__init__(*args, formatter_class=formatter_class, **kwargs)

    def error(self, message: str) -> NoReturn:
        """argparse's usage and message, with each long word of the command line in it cut short (they are echoed whole)."""
        from opgate.core.echo_text import shortened_words

        super().error(shortened_words(message))
