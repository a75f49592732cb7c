"""``opgate explore`` (the default) and ``opgate repl``: the interactive front ends.

Their packages are imported only when asked for, so ``opgate help`` and
``opgate exec`` never load Textual or prompt_toolkit.
"""

from __future__ import annotations

import argparse

from rich.console import Console

from ._gateway_factory import make_gateway


def add_explore_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("explore", help="the explorer (default): browse, build calls, dry-run and run", description="Open the Textual explorer on the catalogue and workspace.")
    parser.add_argument("--allow-write", action="store_true", help="start with writes allowed (toggle inside with the write key)")
    parser.add_argument("--collections", metavar="DIR", help="the folder of collections (one subfolder each) that F7 shows and ctrl+s saves to (default: ./collections)")
    parser.set_defaults(run=run_explore)
    return parser


def add_repl_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("repl", help="an interactive prompt with schema-aware completion", description="Run the opgate REPL. With standard input from a file, run its lines and exit non-zero if any failed.")
    parser.add_argument("--allow-write", action="store_true", help="start with writes allowed")
    parser.set_defaults(run=run_repl)
    return parser


def run_explore(args: argparse.Namespace, console: Console) -> int:
    from opgate.tui import run_explorer

    gateway = make_gateway(args, allow_write=getattr(args, "allow_write", False))
    options = [word for path in args.catalog for word in ("--catalog", path)]
    options += ["--db", args.db] if args.db else []
    options += ["--context", args.context] if args.context else []
    return run_explorer(gateway, catalog_label=", ".join(args.catalog) if args.catalog else "built-in catalogue", global_options=options,
                        collections_dir=getattr(args, "collections", None))


def run_repl(args: argparse.Namespace, console: Console) -> int:
    from opgate.repl import run_repl as run

    gateway = make_gateway(args, allow_write=getattr(args, "allow_write", False))
    return run(gateway)
