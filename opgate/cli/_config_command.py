"""``opgate config check`` and ``opgate config path``: the configuration file, checked whole."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "config", help="check the configuration file",
        description="check: read opgate.toml and report every problem with its file and key (exit 1 when there is one). path: which file is used.",
    )
    parser.add_argument("action", choices=("check", "path"), help="check the file, or print which file is used")
    parser.set_defaults(run=run_config)
    return parser


def run_config(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core.config import ConfigError, check_context, check_documents, check_mcp_upstreams, find_config, read_config, unknown_bindings, user_config_path

    # Paths, keys and names come from the person and the file: printed as text, never read as markup.
    path = find_config(getattr(args, "config", None))
    if args.action == "path":
        console.print(Text(str(path) if path else f"no configuration file (looked for ./opgate.toml and {user_config_path()})"))
        return 0
    if path is None:
        console.print(Text(f"no configuration file: nothing to check (looked for ./opgate.toml and {user_config_path()}); the defaults apply"))
        return 0
    try:
        config = read_config(path)
        # The file is well-formed: its context is checked against the scopes there are, its MCP upstreams as
        # the commands read them, and what it says of each HTTP API against the API's document.
        problems = check_context(config) + check_mcp_upstreams(config) + check_documents(config)
    except ConfigError as exc:
        problems = exc.problems
    if problems:
        for problem in problems:
            console.print(Text.assemble(("error", "red"), f" {problem}"), highlight=False)
        console.print(Text(f"{len(problems)} problem{'s' if len(problems) > 1 else ''} in {path}"))
        return 1
    http, mcp = sorted(config.http_upstreams), sorted(config.mcp_servers)
    console.print(Text(f"{path}: ok"))
    console.print(Text(f"  HTTP upstreams: {', '.join(http) or 'none'}; MCP upstreams: {', '.join(mcp) or 'none'}"))
    # A warning, not an error: the explorer starts without the binding (and says so), and no other command uses keys.
    for binding in unknown_bindings(config.keymap):
        console.print(Text.assemble(("warning", "yellow"), f" {path}: explorer.keymap.{binding}: no explorer binding has this id; F1 in the explorer lists them"), highlight=False)
    return 0
