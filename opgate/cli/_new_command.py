"""``opgate new tool NAME [DIR]``: a tool folder that builds and runs as it is."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "new",
        help="make a new tool folder",
        description="Make DIR/NAME with schema.json, guide.md and handler.py: a working tool to edit into yours.",
    )
    parser.add_argument("what", choices=("tool",), help="what to make (a tool folder)")
    parser.add_argument("name", help="the tool's folder name (kb-search); its toolId is the same with '_' for '-'")
    parser.add_argument("dir", type=Path, nargs="?", default=Path("."), help="the folder of tool folders to put it in (default: here)")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core.catalog._scaffold import ScaffoldError, scaffold_tool_folder

    # Names and folders are what the person typed: printed as text, never read as markup.
    # soft_wrap: the terminal wraps a long line; rich adds no newline inside a path or the command to copy.
    try:
        folder = scaffold_tool_folder(args.name, args.dir)
    except ScaffoldError as exc:
        console.print(Text.assemble(("error:", "red"), f" {exc}"), highlight=False, soft_wrap=True)
        return 2
    except OSError as exc:
        console.print(Text.assemble(("error:", "red"), f" cannot write {args.dir / args.name}: {exc.strerror or exc}"), highlight=False, soft_wrap=True)
        return 2
    console.print(Text(f"made {folder}: edit schema.json, guide.md and handler.py, then `opgate build {args.dir}`"), highlight=False, soft_wrap=True)
    return 0
