"""``opgate exec``, ``opgate batch`` and ``opgate demo reset``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from rich.console import Console

from opgate.core.argtext import ArgTextError, parse_key_values
from opgate.core.exec import ConfirmationRequest

from opgate.views import render_envelope
from ._asker import terminal_asker
from ._gateway_factory import make_gateway


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("exec", help="run an op", description="Run an op and print its envelope. Exit status 0 when ok, 1 when not.")
    parser.add_argument("op", help="an op (onto.task.list) or its tool name (list_onto_tasks)")
    parser.add_argument("args", nargs="*", help="key=value words typed by the op's schema, or one JSON object")
    parser.add_argument("--dry-run", action="store_true", help="run in a transaction that is rolled back; show the diff")
    parser.add_argument("--allow-write", action="store_true", help="let write ops write")
    parser.add_argument("--yes", action="store_true", help="confirm ops that need a person's confirmation without asking")
    parser.add_argument("--idempotency-key", metavar="KEY", help="replay the first response for this key instead of running again")
    parser.add_argument("--state-digest", metavar="DIGEST", help="fail with CONFLICT if the state changed since the dry-run that gave this digest")
    parser.add_argument("--json", action="store_true", help="print the envelope as plain JSON")
    parser.set_defaults(run=run_exec)
    return parser


def add_batch_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("batch", help="run a batch of help/exec steps", description="Run steps from a JSON file (or - for standard input): a list of {tool, args}, or {steps, on_error}.")
    parser.add_argument("file", help="a JSON file, or - for standard input")
    parser.add_argument("--on-error", choices=("stop", "continue"), help="what to do after a failing step (default: stop)")
    parser.add_argument("--allow-write", action="store_true", help="let write steps write")
    parser.add_argument("--yes", action="store_true", help="confirm steps that need confirmation without asking")
    parser.add_argument("--json", action="store_true", help="print plain JSON")
    parser.set_defaults(run=run_batch)
    return parser


def add_demo_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("demo", help="the demo workspace", description="Manage the demo workspace.")
    parser.add_argument("action", choices=("reset",), help="reset: delete the workspace database and load the demo again")
    parser.set_defaults(run=run_demo)
    return parser


def _approver(args: argparse.Namespace, console: Console):
    if args.yes:
        return lambda request: True
    if not sys.stdin.isatty():
        return None

    def ask(request: ConfirmationRequest) -> bool:
        console.print(f"[bold yellow]{request.op}[/] needs your confirmation. It would change:")
        console.print(render_envelope(request.preview | {"op": request.op, "ok": True}))
        try:
            return console.input("Run it for real? [y/N] ").strip().lower() in ("y", "yes")
        except (EOFError, KeyboardInterrupt):
            return False  # no answer is a no

    return ask


def _print(console: Console, value: Any, as_json: bool) -> None:
    if as_json:
        console.file.write(json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n")
    elif isinstance(value, list):
        for envelope in value:
            console.print(render_envelope(envelope))
    else:
        console.print(render_envelope(value))


def run_exec(args: argparse.Namespace, console: Console) -> int:
    gateway = make_gateway(args, allow_write=args.allow_write, approver=_approver(args, console), asker=terminal_asker())
    record = gateway.registry.resolve(args.op)
    try:
        call_args = parse_key_values(args.args, record.parameters if record else {})
    except ArgTextError as exc:
        call_args = None
        envelope = {"op": args.op, "ok": False, "error": {"code": "VALIDATION_ERROR", "message": str(exc), "details": {"field_errors": []}, "help_path": record.op if record else "root"}}
    if call_args is not None:
        envelope = gateway.exec(args.op, call_args, idempotency_key=args.idempotency_key, dry_run=args.dry_run, state_digest=args.state_digest)
    _print(console, envelope, args.json)
    return 0 if envelope.get("ok") else 1


def _read_steps(source: str) -> tuple[Any, str | None]:
    text = sys.stdin.read() if source == "-" else Path(source).read_text(encoding="utf-8")
    data = json.loads(text)
    if isinstance(data, dict):
        return data.get("steps"), data.get("on_error")
    return data, None


def run_batch(args: argparse.Namespace, console: Console) -> int:
    try:
        steps, on_error = _read_steps(args.file)
    except (OSError, json.JSONDecodeError, RecursionError, UnicodeDecodeError) as exc:
        console.print(f"[red]cannot read the batch:[/] {exc if not isinstance(exc, RecursionError) else 'it is nested too deeply'}")
        return 2
    gateway = make_gateway(args, allow_write=args.allow_write, approver=_approver(args, console), asker=terminal_asker())
    envelopes = gateway.batch(steps, on_error=args.on_error or on_error or "stop")
    _print(console, envelopes, args.json)
    return 0 if all(e.get("ok") for e in envelopes) else 1


def run_demo(args: argparse.Namespace, console: Console) -> int:
    from opgate.core.store import default_path, reset_demo

    from opgate.core.store import StoreError

    path = Path(args.db) if args.db else default_path()
    try:
        store = reset_demo(path)
    except (StoreError, OSError) as exc:
        console.print(f"[red]cannot reset:[/] {exc}")
        return 2
    store.close()
    console.print(f"demo workspace reset at {path}")
    return 0
