"""Global options that work before and after the subcommand.

People type ``opgate --catalog x.json help`` and ``opgate help --catalog x.json``
alike. argparse copies a subparser's values over the main parser's, so each
position gets its own ``dest`` and :func:`merge_global_options` joins them.
"""

from __future__ import annotations

import argparse

GLOBAL_DESTS = ("catalog", "context", "db", "search")


def add_global_options(parser: argparse.ArgumentParser, *, position: str) -> None:
    group = parser.add_argument_group("global options")
    group.add_argument(
        "--catalog",
        action="append",
        dest=f"{position}_catalog",
        metavar="PATH",
        help="a catalogue file or folder (NAME=PATH names its namespace); repeatable; default: the built-in catalogue",
    )
    group.add_argument("--context", dest=f"{position}_context", metavar="NAME", help="a context scope: only its ops are visible")
    group.add_argument("--db", dest=f"{position}_db", metavar="PATH", help="the workspace database (default: the user data folder)")
    group.add_argument(
        "--search",
        dest=f"{position}_search",
        choices=("default", "semantic"),
        help="the search ranker: default (pure Python) or semantic (fused with sentence embeddings; needs opgate[semantic]); default: $OPGATE_SEARCH or default",
    )


def merge_global_options(args: argparse.Namespace) -> argparse.Namespace:
    main_catalogs = getattr(args, "main_catalog", None) or []
    sub_catalogs = getattr(args, "sub_catalog", None) or []
    args.catalog = [*main_catalogs, *sub_catalogs]
    for dest in GLOBAL_DESTS[1:]:
        setattr(args, dest, getattr(args, f"sub_{dest}", None) or getattr(args, f"main_{dest}", None))
    return args
