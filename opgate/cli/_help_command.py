"""``opgate help``: the same payload an agent gets, printed for people or as JSON."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from ._gateway_factory import make_gateway

if TYPE_CHECKING:
    from rich.console import Console


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("help", help="browse the op namespace", description="Show help for the root, a group or an op.")
    parser.add_argument("path", nargs="?", default="", help="root, a group (onto, onto.task, onto.task.write) or an op")
    parser.add_argument("--full", action="store_true", help="the full description, metadata and schema")
    parser.add_argument("--examples", action=argparse.BooleanOptionalAction, default=True, help="include examples (default: yes)")
    parser.add_argument("--schemas", action="store_true", help="include the parameters schema")
    parser.add_argument("--cursor", help="the next page of a long group (the cursor a previous answer printed)")
    parser.add_argument("--json", action="store_true", help="print exactly the JSON an agent receives")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, console: Console) -> int:
    # One-shot discovery is not logged: the process is a session of one call, with no chain
    # to trace, and logging it would open the workspace that help never needs (test_import_cost).
    gateway = make_gateway(args, call_log=False)
    try:
        payload = gateway.help(
            args.path, format="full" if args.full else "short", include_examples=args.examples, include_schemas=args.schemas, cursor=args.cursor,
        )
    finally:
        gateway.close()  # ends the upstream connections help listed
    if args.json:
        console.file.write(json.dumps(payload, indent=2, ensure_ascii=False) + "\n")
    else:
        width = console.plain_width() if hasattr(console, "plain_width") else None
        text = None
        if width is not None:
            # Into a pipe or a file: the same characters rich would write, without loading it.
            from opgate.views._envelope_parts import plain_text
            from opgate.views._help_parts import help_parts

            text = plain_text(help_parts(payload), width)
        if text is not None:
            console.file.write(text)
        else:
            from opgate.views import render_help

            console.print(render_help(payload))
    return 0 if payload.get("ok") else 1
