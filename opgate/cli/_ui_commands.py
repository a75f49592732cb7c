"""``opgate explore`` (the default) and ``opgate repl``: the interactive front ends.

Their packages are imported only when asked for, so ``opgate help`` and
``opgate exec`` never load Textual or prompt_toolkit.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from collections.abc import Iterable
from typing import TYPE_CHECKING

from ._gateway_factory import GatewaySetupError, cli_config, make_gateway

if TYPE_CHECKING:
    from rich.console import Console


def add_demo_flag(parser: argparse.ArgumentParser, *, on_subcommand: bool = False) -> None:
    # On the subcommand the default is left out, so "opgate --demo explore" keeps the main parser's value.
    extra = {"default": argparse.SUPPRESS} if on_subcommand else {}
    parser.add_argument("--demo", action="store_true", **extra, help="open the explorer on a scratch copy of the demo workspace, deleted when it closes (for live demos)")


def add_explore_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("explore", help="the explorer (default): browse, build calls, dry-run and run", description="Open the Textual explorer on the catalogue and workspace.")
    parser.add_argument("--allow-write", action="store_true", help="start with writes allowed (toggle inside with the write key)")
    add_demo_flag(parser, on_subcommand=True)
    parser.add_argument("--collections", metavar="DIR", help="the folder of collections (one subfolder each) that ctrl+o shows and ctrl+s saves to (default: ./collections)")
    parser.set_defaults(run=run_explore)
    return parser


def add_repl_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("repl", help="an interactive prompt with schema-aware completion", description="Run the opgate REPL. With standard input from a file, run its lines and exit non-zero if any failed.")
    parser.add_argument("--allow-write", action="store_true", help="start with writes allowed")
    parser.add_argument("--verbose", action="store_true", help="errors in full (usage, example, every field), not in three lines")
    parser.add_argument("--stop-on-error", action="store_true", help="in a script, stop at the first line that fails")
    parser.set_defaults(run=run_repl)
    return parser


def run_explore(args: argparse.Namespace, console: Console) -> int:
    if getattr(args, "demo", False):
        if args.db:
            raise GatewaySetupError("--demo opens a scratch copy of the demo workspace; leave --db out")
        import tempfile  # only the demo explorer needs a scratch folder

        with tempfile.TemporaryDirectory(prefix="opgate-demo-") as scratch:
            from opgate.core.store import open_store

            args.db = str(Path(scratch) / "demo.db")
            open_store(args.db).close()  # a fresh workspace gets the demo: filled now, before the first frame
            return _explore(args, demo=True)
    return _explore(args, demo=False)


def catalog_label(args: argparse.Namespace, http_upstreams: Iterable[str] = (), mcp_upstreams: Iterable[str] = ()) -> str:
    """What the explorer's top bar says it shows: the catalogues, the MCP server files beside them, and the
    OpenAPI and MCP upstreams of opgate.toml (found in the folder as often as named by ``--config``)."""
    label = ", ".join(args.catalog) if args.catalog else "built-in catalogue"
    servers = getattr(args, "mcp_servers", None) or []
    apis, mcps = sorted(http_upstreams), sorted(mcp_upstreams)
    return (label + "".join(f" + {path}" for path in servers) + (f" + {', '.join(apis)} (OpenAPI)" if apis else "")
            + (f" + {', '.join(mcps)} (MCP)" if mcps else ""))


def copied_options(args: argparse.Namespace, *, demo: bool) -> list[str]:
    """The global options a call copied as an ``opgate exec`` line needs to find the same op and workspace.

    Without ``--mcp-servers`` or ``--config`` an upstream's op is NOT_FOUND where the line is pasted.
    The demo's scratch database is deleted at exit: a copied line uses the person's own.
    """
    options = [word for path in args.catalog for word in ("--catalog", path)]
    options += [word for path in getattr(args, "mcp_servers", None) or [] for word in ("--mcp-servers", path)]
    options += ["--config", str(args.config)] if getattr(args, "config", None) else []
    options += ["--db", args.db] if args.db and not demo else []
    options += ["--context", args.context] if args.context else []
    return options


def _explore(args: argparse.Namespace, *, demo: bool) -> int:
    from opgate.tui import run_explorer

    config = cli_config(args)
    gateway = make_gateway(args, allow_write=getattr(args, "allow_write", False))
    try:
        return run_explorer(
            gateway, catalog_label=catalog_label(args, config.http_upstreams, config.mcp_servers), global_options=copied_options(args, demo=demo),
            keymap=dict(config.keymap), theme=config.theme, demo=demo, collections_dir=getattr(args, "collections", None),
        )
    finally:
        gateway.close()  # the scratch workspace is deleted next: nothing may hold it open


def run_repl(args: argparse.Namespace, console: Console) -> int:
    from opgate.repl import run_repl as run

    gateway = make_gateway(args, allow_write=getattr(args, "allow_write", False))
    try:
        return run(gateway, verbose=args.verbose, stop_on_error=args.stop_on_error)
    finally:
        gateway.close()  # stops handler workers and upstream connections, and writes the queued call log
