"""Global options that work before and after the subcommand.

People type ``opgate --catalog x.json help`` and ``opgate help --catalog x.json``
alike. argparse copies a subparser's values over the main parser's, so each
position gets its own ``dest`` and :func:`merge_global_options` joins them.
"""

from __future__ import annotations

import argparse

GLOBAL_DESTS = ("catalog", "context", "db", "config", "search")
LIST_DESTS = ("catalog", "mcp_servers")


def add_global_options(parser: argparse.ArgumentParser, *, position: str) -> None:
    group = parser.add_argument_group("global options")
    group.add_argument(
        "--catalog",
        action="append",
        dest=f"{position}_catalog",
        metavar="PATH",
        type=catalog_spec,
        help="a catalogue file or folder (NAME=PATH names its namespace); repeatable; default: the built-in catalogue",
    )
    group.add_argument(
        "--mcp-servers",
        action="append",
        dest=f"{position}_mcp_servers",
        metavar="FILE",
        type=named_file("--mcp-servers"),
        help="upstream MCP servers, in the mcpServers (Claude Desktop, Cursor) or servers (VS Code) JSON format; repeatable",
    )
    group.add_argument("--context", dest=f"{position}_context", metavar="NAME", help="a context scope: only its ops are visible")
    group.add_argument("--db", dest=f"{position}_db", metavar="PATH_OR_URL", type=workspace_path, help="the workspace database: an SQLite file or a postgresql:// URL (default: $OPGATE_DB, else the configuration's database, else a file in the user data folder)")
    group.add_argument("--config", dest=f"{position}_config", metavar="FILE", type=named_file("--config"), help="the configuration file (default: ./opgate.toml, else opgate.toml in the user config folder)")
    group.add_argument(
        "--search",
        dest=f"{position}_search",
        choices=("default", "semantic"),
        help="the search ranker: default (pure Python) or semantic (fused with sentence embeddings; needs opgate[semantic]); default: $OPGATE_SEARCH, else the configuration's search, else default",
    )


def workspace_path(text: str) -> str:
    """``--db`` must name a file: an empty value (an unset shell variable) is refused, never read as "the default".

    ``opgate --db "$WS" demo reset`` with ``$WS`` unset would otherwise reset
    the person's real workspace.
    """
    if not text.strip():
        raise argparse.ArgumentTypeError("the path is empty (an unset variable?); name a file, or leave --db out to use the default workspace")
    return text


def named_file(flag: str):
    """An option that names a file: empty (an unset variable) is refused, as ``--db`` refuses it.

    ``--config "$CFG"`` with ``$CFG`` unset read ./opgate.toml instead, and
    ``--catalog ""`` loaded every JSON file of the current folder.
    """

    def checked(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"the path is empty (an unset variable?); name a file, or leave {flag} out")
        return text

    return checked


def catalog_spec(text: str) -> str:
    """``--catalog PATH`` or ``NAME=PATH``; neither path may be empty."""
    from opgate.core.catalog._sources import split_catalog_spec

    name, path = split_catalog_spec(named_file("--catalog")(text))
    if name is not None and not path.strip():
        raise argparse.ArgumentTypeError(f"{name}= names no file: the path is empty (an unset variable?); give {name}=PATH")
    return text


def merge_global_options(args: argparse.Namespace) -> argparse.Namespace:
    for dest in LIST_DESTS:
        setattr(args, dest, [*(getattr(args, f"main_{dest}", None) or []), *(getattr(args, f"sub_{dest}", None) or [])])
    for dest in GLOBAL_DESTS[1:]:
        setattr(args, dest, getattr(args, f"sub_{dest}", None) or getattr(args, f"main_{dest}", None))
    return args
