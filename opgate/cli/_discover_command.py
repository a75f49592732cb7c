"""``opgate search`` and ``opgate discover``: the discovery calls an agent makes, from a shell.

``discover`` prints exactly the JSON the Gateway answers, as the agent would
receive it. ``search`` prints a table at a terminal (as ``help`` does), and
the JSON when its output is piped or with ``--json``.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from ._gateway_factory import make_gateway

if TYPE_CHECKING:
    from rich.console import Console, RenderableType


def add_search_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("search", help="find ops by what they do", description="Rank the visible ops for a request in plain words.")
    parser.add_argument("query", nargs="+", help="what you want to do, in words")
    parser.add_argument("--path", help="only ops under this group (onto.task)")
    parser.add_argument("--kind", choices=("read", "write"), help="only reads or only writes")
    parser.add_argument("--limit", type=int, default=10, help="how many (1-50, default 10)")
    parser.add_argument("--cursor", help="the next_cursor of an earlier answer")
    parser.add_argument("--json", action="store_true", help="print exactly the JSON an agent receives (the default when the output is piped)")
    parser.set_defaults(run=run_search)
    return parser


def add_discover_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "discover",
        help="the discovery protocol: list, category search, node search, expand",
        description="Call the discovery protocol and print its JSON answer.",
    )
    actions = parser.add_subparsers(dest="action", metavar="ACTION", required=True)
    listing = actions.add_parser("list", help="child groups and ops at a path")
    listing.add_argument("path", nargs="?", default="", help="a group such as onto.task ('' for the root)")
    listing.add_argument("--query", help="rank the ops under the path by these words")
    listing.add_argument("--tag", action="append", dest="tags", help="only ops with this tag (repeatable)")
    listing.add_argument("--limit", type=int)
    listing.add_argument("--cursor")
    category = actions.add_parser("category", help="search inside one group")
    category.add_argument("query", help="what you want to do, in words")
    category.add_argument("--path", default="", help="the group to search in")
    category.add_argument("--limit", type=int)
    category.add_argument("--cursor")
    nodes = actions.add_parser("nodes", help="which groups match a request")
    nodes.add_argument("query", help="what you want to do, in words")
    nodes.add_argument("--limit", type=int)
    expand = actions.add_parser("expand", help="the full argument schema of one op")
    expand.add_argument("tool_id", help="an op such as onto.task.create")
    parser.set_defaults(run=run_discover)
    return parser


def _print(console: Console, answer: dict[str, Any]) -> int:
    console.file.write(json.dumps(answer, indent=2, ensure_ascii=False) + "\n")
    return 0 if answer.get("ok") else 1


def run_search(args: argparse.Namespace, console: Console) -> int:
    gateway = make_gateway(args, call_log=False)  # not logged, as `opgate help` (see there)
    try:
        answer = gateway.search(" ".join(args.query), path=args.path, kind=args.kind, limit=args.limit, cursor=args.cursor)
    finally:
        gateway.close()  # ends the upstream connections the search listed
    if args.json or not console.file.isatty():
        return _print(console, answer)
    console.print(search_table(answer))
    return 0 if answer.get("ok") else 1


def search_table(answer: dict[str, Any]) -> RenderableType:
    """Ranked ops as a table; an error as its message and hints. Text from catalogues is data, never markup."""
    from rich import box
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    if not answer.get("ok"):
        error = answer.get("error") or {}
        lines = [Text(f"{error.get('code', 'ERROR')}: {error.get('message', '')}", style="red")]
        lines += [Text(f"  {hint}", style="dim") for hint in (error.get("details") or {}).get("hints", []) if isinstance(hint, str)]
        return Group(*lines)
    table = Table(box=box.SIMPLE_HEAD, title=Text(f"search: {answer.get('query', '')}"), title_justify="left", expand=False)
    table.add_column("op", style="bold", no_wrap=True)
    table.add_column("kind")
    table.add_column("fit", justify="right")
    table.add_column("what it does")
    for row in answer.get("results") or []:
        table.add_row(Text(str(row.get("op", ""))), Text(str(row.get("kind", ""))), f"{float(row.get('confidence') or 0):.2f}", Text(str(row.get("summary", ""))))
    parts: list[RenderableType] = [table]
    if answer.get("next_cursor"):
        parts.append(Text(f"more: --cursor {answer['next_cursor']}", style="dim"))
    return Group(*parts)


def run_discover(args: argparse.Namespace, console: Console) -> int:
    gateway = make_gateway(args, call_log=False)
    discovery = gateway.discovery
    calls = {
        "list": lambda: discovery.list(args.path, tags=args.tags, query=args.query, limit=args.limit, cursor=args.cursor),
        "category": lambda: discovery.search_tool_by_category(args.query, args.path, limit=args.limit, cursor=args.cursor),
        "nodes": lambda: discovery.search_nodes(args.query, limit=args.limit),
        "expand": lambda: discovery.expand_tool(args.tool_id),
    }
    try:
        answer = calls[args.action]()
    finally:
        gateway.close()
    return _print(console, answer)
