"""Subcommand parsers built only for the commands a command line names.

Building every subcommand's arguments costs a one-shot command more than
parsing them (bench/bench_cli.py). A command that is not on the command line
is still registered, with its name, aliases and one-line help, so
``opgate --help`` and argparse's "invalid choice" message list it exactly as
before; its arguments are never added, since argparse can only pick a
subcommand whose name is one of the words typed.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

# What argparse's add_parser keeps for the parent's listing; the rest belongs to the subcommand's own parser.
_LISTING_KEYS = ("help", "aliases")


class _Unbuilt:
    """Stands in for a parser (or group) that is never used: every call is accepted and dropped."""

    def __init__(self, **options: Any) -> None:
        pass

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


class NamedOnly:
    """Wraps argparse's subparsers action: a full parser for the commands in ``named``, a listing entry for the rest."""

    def __init__(self, subparsers: Any, named: Collection[str] | None):
        self._subparsers = subparsers
        self._named = named

    def wanted(self, name: str, aliases: Collection[str] = ()) -> bool:
        return self._named is None or name in self._named or any(alias in self._named for alias in aliases)

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.wanted(name, kwargs.get("aliases", ())):
            return self._subparsers.add_parser(name, **kwargs)
        # Listed, with a stand-in where its parser would be: argparse calls a subcommand's parser only when it is chosen.
        parser_class, self._subparsers._parser_class = self._subparsers._parser_class, _Unbuilt
        try:
            return self._subparsers.add_parser(name, **{key: kwargs[key] for key in _LISTING_KEYS if key in kwargs})
        finally:
            self._subparsers._parser_class = parser_class


def is_unbuilt(parser: Any) -> bool:
    return isinstance(parser, _Unbuilt)


def words_of(argv: list[str]) -> frozenset[str]:
    """Every word of the command line: whichever one argparse takes as the command gets its full parser."""
    return frozenset(word for word in argv if not word.startswith("-"))


__all__ = ["NamedOnly", "is_unbuilt", "words_of"]
