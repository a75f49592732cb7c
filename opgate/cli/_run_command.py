"""``opgate run COLLECTION``: run a folder of saved calls, check their expectations, report (and JUnit XML for CI)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING

from ._asker import terminal_asker
from ._exec_command import _approver
from ._gateway_factory import make_gateway

if TYPE_CHECKING:  # the runner loads the exec path (jsonschema, apsw): only `opgate run` pays for it
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text
    from opgate.core.collection import CallReport, RunReport


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser(
        "run", help="run a collection of saved calls and check what they answer",
        description="Run every saved call of a collection folder in file-name order, check each expectation, and exit 1 if any fails (2 if the collection cannot be read).",
    )
    parser.add_argument("collection", help="a collection folder (one .toml file per call), or the name of one shipped with opgate (demo)")
    parser.add_argument("--dry-run", action="store_true", help="run on a scratch copy of the workspace: nothing is written, and later calls still see what earlier ones created")
    parser.add_argument("--env", metavar="FILE", help="a TOML file of variables (name = value) that override the collection's [vars]")
    parser.add_argument("--junit", metavar="FILE", help="also write the report as JUnit XML (one testcase per call)")
    parser.add_argument("--allow-write", action="store_true", help="let write calls write (without --dry-run)")
    parser.add_argument("--yes", action="store_true", help="confirm calls that need a person's confirmation without asking")
    parser.set_defaults(run=run_command)
    return parser


def _show_call(console: Console, call: CallReport) -> None:
    """One line per call as it finishes, then one per failed expectation (plain text: it may hold anything)."""
    from rich.text import Text

    mark = ("PASS", "green") if call.passed else ("FAIL", "red")
    console.print(Text.assemble(mark, f" {call.call.file_name}  {call.call.op}  ({call.how}, {call.seconds * 1000:.0f} ms)"))
    for check in call.failures:
        console.print(Text(f"       expected {check.what}; {check.detail}"))


def _table(report: RunReport) -> Table:
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{report.collection.name} ({report.mode})", title_justify="left")
    # The file and its op share a column and are never folded: at 80 columns five equal columns
    # cut "onto.task.updat|e" and "040_start_task.|toml"; the expectation and what was found wrap at words.
    table.add_column("call · op", no_wrap=True)
    table.add_column("expectation", ratio=1, overflow="fold")
    table.add_column("", no_wrap=True)
    table.add_column("found", ratio=1, overflow="fold")
    for call in report.calls:
        for index, check in enumerate(call.checks):
            mark = Text("pass", "green") if check.passed else Text("FAIL", "bold red")
            where = Text.assemble(call.call.file_name, "\n", (call.call.op, "dim")) if index == 0 else Text("")
            table.add_row(where, Text(check.what), mark, Text(check.detail))
    return table


def _summary(report: RunReport) -> Text:
    from rich.text import Text

    passed, failed = report.counts
    checks = sum(len(c.checks) for c in report.calls)
    failed_checks = sum(len(c.failures) for c in report.calls)
    where = "on a scratch copy; the workspace was not written" if report.mode == "dry-run" else "on the workspace"
    style = "red" if failed else "green"
    return Text.assemble((f"{passed} passed, {failed} failed", style), f" ({checks - failed_checks}/{checks} expectations met) in {report.seconds:.2f} s, {report.mode} {where}")


def run_command(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core.collection import CollectionError, junit_xml, load_collection, load_env, run_collection

    try:
        collection = load_collection(args.collection)
        variables = load_env(args.env) if args.env else {}
    except CollectionError as exc:
        console.print(Text.assemble(("cannot run the collection: ", "red"), str(exc)))
        return 2
    gateway = make_gateway(args, allow_write=args.allow_write, approver=_approver(args, console), asker=terminal_asker())
    at_terminal = console.is_terminal
    try:
        report = run_collection(gateway, collection, variables=variables, dry_run=args.dry_run, on_call=None if at_terminal else lambda c: _show_call(console, c))
    except CollectionError as exc:
        console.print(Text.assemble(("cannot run the collection: ", "red"), str(exc)))
        return 2
    finally:
        gateway.close()
    if at_terminal:
        console.print(_table(report))
    console.print(_summary(report))
    if args.junit:
        try:
            Path(args.junit).write_text(junit_xml(report), encoding="utf-8")
        except OSError as exc:
            console.print(Text.assemble(("cannot write the JUnit report: ", "red"), str(exc)))
            return 2
    return 0 if report.passed else 1
