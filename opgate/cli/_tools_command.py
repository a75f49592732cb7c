"""``opgate tools``: what a model would be sent, per provider and mode, and what it costs.

The tools array is the only thing on stdout, so ``> tools.json`` captures
exactly it; refusals and notes go to stderr, and a refusal exits non-zero.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from opgate.core.export import PROVIDERS
from opgate.core.modes import MODES

from ._gateway_factory import make_gateway

if TYPE_CHECKING:
    from rich.console import Console

_REFUSED = 2


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "tools",
        help="print the tool definitions a model is sent",
        description="Print the tools array for a provider and exposure mode, or its size with --stats.",
    )
    parser.add_argument("--provider", choices=PROVIDERS, default="openai", help="the provider's format (default: openai); gemini-openapi fills Gemini's `parameters` instead of `parameters_json_schema`")
    parser.add_argument("--mode", choices=MODES, default="gateway", help="gateway (default), full, hybrid or deferred")
    parser.add_argument("--turn", metavar="TEXT", help="the user's message, to choose the hybrid typed lane")
    parser.add_argument("--strict", action="store_true", help="OpenAI strict mode: strict schemas where they can be, and on stderr the tools that cannot be, with why")
    parser.add_argument("--stats", action="store_true", help="print the tool count, bytes and estimated tokens instead")
    parser.set_defaults(run=run)
    return parser


def _refuse(message: str) -> int:
    from rich.console import Console
    from rich.text import Text

    Console(file=sys.stderr, highlight=False, soft_wrap=True).print(Text.assemble(("opgate: error:", "red"), f" {message}"))
    return _REFUSED


def _report_not_strict(not_strict: dict[str, list[str]], strict_tools: int) -> None:
    if not not_strict:
        return
    print(f"opgate: {len(not_strict)} of {strict_tools + len(not_strict)} tools keep a non-strict schema (strict: false):", file=sys.stderr)
    for name, reasons in sorted(not_strict.items()):
        print(f"  {name}: {'; '.join(reasons)}", file=sys.stderr)


def run(args: argparse.Namespace, console: Console) -> int:
    gateway = make_gateway(args)
    try:
        return _print_tools(args, console, gateway)
    finally:
        gateway.close()  # writes the call log and ends the upstream connections the export listed


def _print_tools(args: argparse.Namespace, console: Console, gateway: Any) -> int:
    from opgate.core.modes import ToolRouter, build_export, stats

    from rich.table import Table

    try:
        built = build_export(gateway, args.provider, args.mode, router=ToolRouter(gateway), turn=args.turn, strict=args.strict)
    except ValueError as exc:
        return _refuse(str(exc))
    browse_only = sum(1 for r in gateway.registry if not r.runnable and gateway.is_visible(r.op))
    if browse_only and args.mode != "gateway":
        print(f"opgate: {browse_only} browse-only ops are left out: nothing here can run them (see `opgate help <op>`)", file=sys.stderr)
    figures = stats(built.tools)
    if args.strict:
        _report_not_strict(built.not_strict, built.strict_tools)
    if not args.stats:
        console.file.write(json.dumps(built.tools, indent=2, ensure_ascii=False) + "\n")
        return 0
    rows = [
        ("provider", args.provider), ("mode", args.mode), ("tools", str(figures["tools"])), ("bytes", f"{figures['bytes']:,}"),
        ("est. tokens", f"{figures['estimated_tokens']:,}"), ("upfront bytes", f"{figures['upfront_bytes']:,}"),
    ]
    if figures["namespaces"]:
        rows.append(("namespaces", str(figures["namespaces"])))
    if args.strict:
        rows.append(("strict", f"{built.strict_tools}/{built.strict_tools + len(built.not_strict)}"))
    # One figure per line: it stays readable in a narrow terminal, whatever the number of figures.
    table = Table(show_edge=False, show_header=False)
    table.add_column("figure")
    table.add_column("value", justify="right")
    for figure, value in rows:
        table.add_row(figure, value)
    console.print(table)
    return 0
