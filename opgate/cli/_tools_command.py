"""``opgate tools``: what a model would be sent, per provider and mode, and what it costs."""

from __future__ import annotations

import argparse
import json
import sys

from rich.console import Console
from rich.table import Table
from rich.text import Text

from opgate.core.modes import MODES, PROVIDERS, ToolRouter, export, stats

from ._gateway_factory import make_gateway


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "tools",
        help="print the tool definitions a model is sent",
        description="Print the tools array for a provider and exposure mode, or its size with --stats.",
    )
    parser.add_argument("--provider", choices=PROVIDERS, default="openai", help="the provider's format (default: openai)")
    parser.add_argument("--mode", choices=MODES, default="gateway", help="gateway (default), full, hybrid or deferred")
    parser.add_argument("--turn", metavar="TEXT", help="the user's message, to choose the hybrid typed lane")
    parser.add_argument("--stats", action="store_true", help="print the tool count, bytes and estimated tokens instead")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, console: Console) -> int:
    gateway = make_gateway(args)
    try:
        tools = export(gateway, args.provider, args.mode, router=ToolRouter(gateway), turn=args.turn)
    except ValueError as exc:
        console.print(Text.assemble(("error:", "red"), f" {exc}"))
        return 2
    browse_only = sum(1 for r in gateway.registry if not r.runnable and gateway.is_visible(r.op))
    if browse_only and args.mode != "gateway":
        print(f"opgate: {browse_only} browse-only ops are left out: nothing here can run them (see `opgate help <op>`)", file=sys.stderr)
    if not args.stats:
        console.file.write(json.dumps(tools, indent=2, ensure_ascii=False) + "\n")
        return 0
    figures = stats(tools)
    table = Table(show_edge=False)
    for column in ("provider", "mode", "tools", "bytes", "est. tokens", "upfront bytes"):
        table.add_column(column, justify="right" if column not in ("provider", "mode") else "left")
    table.add_row(args.provider, args.mode, str(figures["tools"]), f"{figures['bytes']:,}", f"{figures['estimated_tokens']:,}", f"{figures['upfront_bytes']:,}")
    console.print(table)
    return 0
