"""The one-shot command line: ``opgate <command>``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rich.console import Console

from . import _build_command, _exec_command, _help_command, _serve_command, _tools_command, _ui_commands
from ._options import add_global_options, merge_global_options

__all__ = ["build_parser", "main"]

COMMANDS = (
    _ui_commands.add_explore_parser,
    _ui_commands.add_repl_parser,
    _help_command.add_parser,
    _exec_command.add_parser,
    _exec_command.add_batch_parser,
    _exec_command.add_demo_parser,
    _serve_command.add_parser,
    _tools_command.add_parser,
    _build_command.add_parser,
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="opgate", description="A progressive tool disclosure gateway: browse ops, read their help, run them.")
    add_global_options(parser, position="main")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for add_parser in COMMANDS:
        sub = add_parser(subparsers)
        add_global_options(sub, position="sub")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = merge_global_options(parser.parse_args(argv))
    console = Console(file=sys.stdout, highlight=False, soft_wrap=False)
    if not getattr(args, "run", None):
        return _ui_commands.run_explore(args, console)
    try:
        return args.run(args, console)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
