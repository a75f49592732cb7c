"""``opgate upstreams``: the configured upstream MCP servers, and approving their changed tools."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ._gateway_factory import make_gateway

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "upstreams",
        help="list the upstream MCP servers (--mcp-servers), or approve their changed tools",
        description=(
            "List each upstream MCP server given with --mcp-servers: its state, protocol version, tool count, "
            "quarantined tools, last error and median latency. `opgate upstreams approve NAME [TOOL]` approves "
            "a quarantined tool (every held-back tool of NAME without TOOL) after you have read its diff."
        ),
    )
    parser.add_argument("words", nargs="*", metavar="approve NAME [TOOL]", help="approve what upstream NAME offers now")
    parser.add_argument("--json", action="store_true", help="print plain JSON")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace, console: Console) -> int:
    words = list(args.words)
    if words and (words[0] != "approve" or len(words) not in (2, 3)):
        console.print("[red]usage:[/] opgate upstreams [approve NAME [TOOL]]")
        return 2
    gateway = make_gateway(args)
    try:
        return _run_on(gateway, words, args, console)
    finally:
        gateway.close()


def _run_on(gateway: Any, words: list[str], args: argparse.Namespace, console: Console) -> int:
    from rich.markup import escape

    upstreams = gateway.upstreams
    if upstreams is None:
        console.print("no upstream MCP servers are configured; give them with --mcp-servers FILE (an mcpServers JSON file) or in opgate.toml")
        return 2
    if words:
        try:
            answer = upstreams.approve(words[1], words[2] if len(words) == 3 else None)
        except (KeyError, RuntimeError) as exc:
            message = exc.args[0] if exc.args else str(exc)
            if args.json:
                console.file.write(json.dumps({"ok": False, "error": message}, indent=2) + "\n")
            else:
                console.print(f"[red]cannot approve:[/] {escape(message)}")
            return 1
        if args.json:
            console.file.write(json.dumps({"ok": True, **answer}, indent=2) + "\n")
        else:
            approved = ", ".join(answer["approved"]) or "nothing new"
            forgotten = f"; forgot {', '.join(answer['forgotten'])}" if answer["forgotten"] else ""
            console.print(f"approved {escape(approved)} on {escape(answer['upstream'])}{escape(forgotten)}")
        return 0
    gateway.refresh_upstreams()
    lines = upstreams.status()
    problems = [p.to_dict() for p in gateway.registry.problems if p.source == "upstreams" or p.source.startswith("upstream ")]
    if args.json:
        console.file.write(json.dumps({"upstreams": lines, "problems": problems}, indent=2, ensure_ascii=False) + "\n")
        return 0
    console.print(_table(lines))
    for line in lines:
        for held in line["quarantined"]:
            console.print(f"\n[bold yellow]{escape(line['name'])}.{escape(held['tool'])}[/] is quarantined ({held['why']}); approve with `opgate upstreams approve {escape(line['name'])} {escape(held['tool'])}`:")
            console.print(escape(held["diff"]), highlight=False)
    for problem in problems:
        console.print(f"[yellow]{escape(problem.get('source', ''))}[/]: {escape(problem['message'])}")
    return 0


def _table(lines: list[dict]) -> Table:
    from rich.markup import escape
    from rich.table import Table

    table = Table(show_edge=False)
    for column in ("name", "state", "protocol", "tools", "quarantined", "median ms", "last error"):
        table.add_column(column, justify="right" if column in ("tools", "median ms") else "left", overflow="fold", no_wrap=column != "last error")
    for line in lines:
        table.add_row(
            escape(line["name"]),
            line["state"],
            line["protocol_version"] or "-",
            str(line["tools"]) if line["tools"] is not None else "-",
            escape(", ".join(q["tool"] for q in line["quarantined"])) or "-",
            f"{line['median_latency_ms']:.1f}" if line["median_latency_ms"] is not None else "-",
            escape(line["last_error"] or "-"),
        )
    return table
