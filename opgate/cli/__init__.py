"""The one-shot command line: ``opgate <command>``."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import (
    _build_command,
    _config_command,
    _db_command,
    _discover_command,
    _exec_command,
    _help_command,
    _new_command,
    _run_command,
    _serve_command,
    _stats_command,
    _token_command,
    _tools_command,
    _ui_commands,
    _upstreams_command,
)
from ._console import StdoutConsole, print_error
from ._gateway_factory import GatewaySetupError
from ._logging import configure_logging
from ._named_only import NamedOnly, is_unbuilt, words_of
from ._options import add_global_options, merge_global_options
from ._parser import CommandParser

__all__ = ["build_parser", "main"]

COMMANDS = (
    _ui_commands.add_explore_parser,
    _ui_commands.add_repl_parser,
    _help_command.add_parser,
    _exec_command.add_parser,
    _exec_command.add_batch_parser,
    _exec_command.add_demo_parser,
    _run_command.add_parser,
    _db_command.add_parser,
    _discover_command.add_search_parser,
    _discover_command.add_discover_parser,
    _serve_command.add_parser,
    _token_command.add_parser,
    _tools_command.add_parser,
    _upstreams_command.add_parser,
    _build_command.add_parser,
    _config_command.add_parser,
    _new_command.add_parser,
    _stats_command.add_parser,
)


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("opgate")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown (not installed)"


class _VersionAction(argparse.Action):
    """``--version``: the installed version, looked up only when asked (importlib.metadata costs more than a command)."""

    def __init__(self, option_strings: Sequence[str], dest: str = argparse.SUPPRESS, **kwargs) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show the program's version number and exit", **kwargs)

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        parser._print_message(f"opgate {_version()}\n", sys.stdout)
        parser.exit()


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The whole parser; given ``argv``, only the subcommands it names get their arguments (the others are listed)."""
    parser = CommandParser(prog="opgate", description="A progressive tool disclosure gateway: browse ops, read their help, run them.")
    parser.add_argument("--version", action=_VersionAction)
    _ui_commands.add_demo_flag(parser)
    add_global_options(parser, position="main")
    subparsers = NamedOnly(parser.add_subparsers(dest="command", metavar="COMMAND"), None if argv is None else words_of(list(argv)))
    for add_parser in COMMANDS:
        sub = add_parser(subparsers)
        if not is_unbuilt(sub):
            add_global_options(sub, position="sub")
    return parser


def _parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None) -> argparse.Namespace:
    """Parse, letting ``exec``'s key=value words come after its flags too (``exec OP --dry-run k=v``)."""
    args, extras = parser.parse_known_args(argv)
    if extras:
        if getattr(args, "command", None) == "exec" and not any(word.startswith("-") for word in extras):
            args.args = [*args.args, *extras]
        else:
            parser.error(f"unrecognized arguments: {' '.join(extras)}")
    return merge_global_options(args)


def main(argv: Sequence[str] | None = None) -> int:
    configure_logging()
    if argv is None:
        argv = sys.argv[1:]
    parser = build_parser(argv)
    args = _parse(parser, argv)
    console = StdoutConsole(sys.stdout, highlight=False, soft_wrap=False)
    try:
        if not getattr(args, "run", None):
            return _ui_commands.run_explore(args, console)
        return args.run(args, console)
    except GatewaySetupError as exc:
        # The message is plain text: "opgate[semantic]" is not markup.
        print_error("opgate:", str(exc))
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0
