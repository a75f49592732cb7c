"""``opgate stats``: what the call log says about how the gateway is used.

Calls by op and code, latency, the hybrid lane's figures and the discovery
chains that led to calls; a table at a terminal, ``--json`` for machines.
It reads the workspace database only: no catalogue is loaded.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._gateway_factory import configured_database

if TYPE_CHECKING:
    from rich.console import Console
    from opgate.core.telemetry._stats import CallStats


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "stats",
        help="summarise the call log: calls by op and code, latency, lane hit rate, discovery chains",
        description=(
            "Summarise the workspace's call log: calls by op and code, p50/p95 latency by kind, the hybrid lane's "
            "schema counts and hit rate, and the discovery chains (search -> help -> exec) that led to calls."
        ),
    )
    parser.add_argument("--since", metavar="WHEN", help="only calls from then on: a window (30m, 2h, 7d) or a UTC date or time (2026-11-26T06:00)")
    parser.add_argument("--chains", type=int, default=10, metavar="N", help="how many recent discovery chains to show (default 10)")
    parser.add_argument("--json", action="store_true", help="print plain JSON")
    parser.set_defaults(run=run)
    return parser


def _fail(console: Console, as_json: bool, message: str) -> int:
    from rich.console import Console
    from rich.markup import escape

    if as_json:
        console.file.write(json.dumps({"ok": False, "error": message}, indent=2) + "\n")
    else:
        Console(stderr=True, highlight=False).print(f"[red]opgate stats:[/] {escape(message)}")
    return 2


def run(args: argparse.Namespace, console: Console) -> int:
    from opgate.core.telemetry._stats import since_stamp, summarize

    try:
        since = since_stamp(args.since) if args.since else None
    except ValueError as exc:
        return _fail(console, args.json, str(exc))
    if args.chains < 0:
        return _fail(console, args.json, "--chains is a count, 0 or more")
    from opgate.core.store import StoreError, default_path, open_store

    from opgate.core.store._locate import is_postgres_url

    # The workspace every other command would use: --db, $OPGATE_DB, the configuration's, the default file.
    location = configured_database(args) or default_path()
    if not is_postgres_url(str(location)) and not Path(location).exists():
        return _fail(console, args.json, f"there is no workspace database at {location}; nothing has been recorded yet")
    try:
        store = open_store(location)
        try:
            with store.read() as tx:
                entries = tx.calls_since(since)
        finally:
            store.close()
    except StoreError as exc:  # a database from a newer opgate, a file that is not one
        return _fail(console, args.json, f"cannot read the call log in {location}: {exc}")
    stats = summarize(entries, since=since, chain_limit=args.chains)
    if args.json:
        console.file.write(json.dumps({"ok": True, **stats.to_dict()}, indent=2, ensure_ascii=False) + "\n")
    else:
        _print_tables(console, stats)
    return 0


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _ms(value: float | None) -> str:
    return "-" if value is None else f"{value:.1f}"


def _print_tables(console: Console, stats: CallStats) -> None:
    from rich.markup import escape
    from rich.table import Table

    window = f"since {stats.since}" if stats.since else "all recorded"
    console.print(f"{_count(stats.entries, 'call')} in {_count(stats.sessions, 'session')} ({window}); exec p50 {_ms(stats.latency_ms['exec_p50'])} ms, p95 {_ms(stats.latency_ms['exec_p95'])} ms")
    if not stats.entries:
        return
    kinds = Table(title="Calls by kind")
    for column in ("kind", "calls", "errors", "p50 ms", "p95 ms"):
        kinds.add_column(column, justify="left" if column == "kind" else "right")
    for row in stats.by_kind:
        kinds.add_row(escape(row["kind"]), str(row["calls"]), str(row["errors"]), _ms(row["p50_ms"]), _ms(row["p95_ms"]))
    console.print(kinds)
    if stats.by_op_and_code:
        ops = Table(title="Exec calls by op and code")
        ops.add_column("op")
        ops.add_column("code")
        ops.add_column("calls", justify="right")
        for row in stats.by_op_and_code:
            ops.add_row(escape(row["op"]), escape(row["code"]), str(row["calls"]))
        console.print(ops)
    _print_lane(console, stats.lane)
    _print_chains(console, stats.chains)


def _print_lane(console: Console, lane: dict[str, Any]) -> None:
    if not (lane["turns"] or lane["list_tools_calls"] or lane["run_tool_calls"]):
        return
    hit = "-" if lane["hit_rate"] is None else f"{lane['hit_rate']:.0%} of {lane['calls_judged']} calls"
    console.print(
        f"Hybrid lane: {lane['turns']} turns, typed schemas mean {lane['typed_schemas_mean']} (max {lane['typed_schemas_max']}), "
        f"total mean {lane['total_schemas_mean']} (max {lane['total_schemas_max']}); list_tools {lane['list_tools_calls']}, "
        f"run_tool {lane['run_tool_calls']} ({lane['run_tool_validation_failures']} validation failures); lane hit rate {hit}"
    )


def _print_chains(console: Console, chains: dict[str, Any]) -> None:
    from rich.markup import escape

    console.print(
        f"Discovery chains: {chains['total']}, {chains['led_to_call']} led to a call ({chains['led_to_ok_call']} to a successful one); "
        f"median steps before the call {chains['median_steps_before_call'] if chains['median_steps_before_call'] is not None else '-'}"
    )
    for chain in chains["recent"]:
        console.print("  " + escape(" → ".join(chain["steps"])))
