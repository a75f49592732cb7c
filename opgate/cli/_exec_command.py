"""``opgate exec``, ``opgate batch`` and ``opgate demo reset``."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._asker import terminal_asker
from ._gateway_factory import make_gateway

if TYPE_CHECKING:
    from rich.console import Console

    from opgate.core.exec import ConfirmationRequest


def add_parser(subparsers) -> argparse.ArgumentParser:
    parser = subparsers.add_parser("exec", help="run an op", description="Run an op and print its envelope. Exit status 0 when ok, 1 when not.")
    parser.add_argument("op", help="an op (onto.task.list) or its tool name (list_onto_tasks)")
    parser.add_argument("args", nargs="*", help="key=value words typed by the op's schema, or one JSON object")
    parser.add_argument("--dry-run", action="store_true", help="write nothing: a workspace op runs in a transaction that is rolled back and shows the diff; an HTTP or MCP op sends nothing and shows the request")
    parser.add_argument("--allow-write", action="store_true", help="let write ops write")
    parser.add_argument("--yes", action="store_true", help="confirm ops that need a person's confirmation without asking")
    parser.add_argument("--idempotency-key", metavar="KEY", help="replay the first response for this key instead of running again")
    parser.add_argument("--state-digest", metavar="DIGEST", help="fail with CONFLICT if the state changed since the dry-run that gave this digest")
    parser.add_argument("--id-seed", metavar="SEED", help="create the very ids the dry-run that gave this seed showed (its meta.id_seed)")
    parser.add_argument("--json", action="store_true", help="print the envelope as plain JSON")
    parser.add_argument("--curl", action="store_true", help="for an HTTP op: send nothing, print the request as a curl command (credentials from the same environment variables)")
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
    parser.add_argument("action", choices=("reset",), help="reset: replace what the workspace holds with the demo (only an opgate workspace; other files are refused)")
    parser.add_argument("--yes", action="store_true", help="reset without asking, even at a terminal")
    parser.add_argument("--force", action="store_true", help="reset even a workspace that holds projects other than the demo's")
    parser.set_defaults(run=run_demo)
    return parser


def _approver(args: argparse.Namespace, console: Console):
    if args.yes:
        return lambda request: True
    if not sys.stdin.isatty():
        return None

    def ask(request: ConfirmationRequest) -> bool:
        from rich.text import Text

        from opgate.views import render_envelope

        console.print(Text.assemble((request.op, "bold yellow"), " needs your confirmation. It would change:"))
        console.print(render_envelope(request.preview | {"op": request.op, "ok": True}))
        try:
            return console.input("Run it for real? [y/N] ").strip().lower() in ("y", "yes")
        except (EOFError, KeyboardInterrupt):
            return False  # no answer is a no

    return ask


def _print(console: Console, value: Any, as_json: bool) -> None:
    if as_json:
        console.file.write(json.dumps(value, indent=2, ensure_ascii=False, default=str) + "\n")
        return
    width = console.plain_width() if hasattr(console, "plain_width") else None
    if width is not None:
        # Into a pipe or a file rich writes the parts' characters as they are: print them without loading it.
        from opgate.views._envelope_parts import envelope_parts, plain_text

        text = plain_text((part for envelope in (value if isinstance(value, list) else [value]) for part in envelope_parts(envelope, confirm_with="--yes")), width)
        if text is not None:
            console.file.write(text)
            return
    from opgate.views import render_envelope

    if isinstance(value, list):
        for envelope in value:
            console.print(render_envelope(envelope, confirm_with="--yes"))
    else:
        console.print(render_envelope(value, confirm_with="--yes"))


def run_exec(args: argparse.Namespace, console: Console) -> int:
    gateway = make_gateway(args, allow_write=args.allow_write, approver=_approver(args, console), asker=terminal_asker())
    try:
        return _exec_one(gateway, args, console)
    finally:
        gateway.close()  # stops handler workers and upstream connections


def _exec_one(gateway, args: argparse.Namespace, console: Console) -> int:
    from opgate.core.argtext import ArgTextError, parse_key_values

    record = gateway.registry.resolve(args.op)
    try:
        call_args = parse_key_values(args.args, record.parameters if record else {})
    except ArgTextError as exc:
        call_args = None
        envelope = {"op": args.op, "ok": False, "error": {"code": "VALIDATION_ERROR", "message": str(exc), "details": {"field_errors": []}, "help_path": record.op if record else "root"}}
    try:
        if call_args is None and record is None:
            # An unknown op is the first thing to fix: the gateway's NOT_FOUND names the closest ops (a dry-run, so nothing can run).
            envelope = gateway.exec(args.op, {}, dry_run=True)
        elif call_args is not None:
            envelope = gateway.exec(
                args.op, call_args, idempotency_key=args.idempotency_key, dry_run=args.dry_run or args.curl, state_digest=args.state_digest, id_seed=args.id_seed,
            )
    finally:
        gateway.close()
    if args.curl:
        return _print_curl(console, envelope, args.json)
    _print(console, envelope, args.json)
    if not args.json:
        _say_how_to_run_what_was_rehearsed(console, envelope)
    if (envelope.get("error") or {}).get("code") == "NOT_FOUND":
        _say_why_an_upstream_is_missing(gateway, args.op)
    return 0 if envelope.get("ok") else 1


def _say_how_to_run_what_was_rehearsed(console: Console, envelope: dict[str, Any]) -> None:
    """After a dry-run that created something: the flags that make the real run the one just reviewed (same state, same ids)."""
    meta = envelope.get("meta") or {}
    if not (envelope.get("ok") and meta.get("dry_run") and meta.get("id_seed")):
        return
    flags = [f"--id-seed {meta['id_seed']}"] + ([f"--state-digest {meta['state_digest']}"] if meta.get("state_digest") else [])
    console.file.write(f"id seed: {meta['id_seed']}; run exactly this with --allow-write {' '.join(flags)}\n")


def _say_why_an_upstream_is_missing(gateway, op: str) -> None:
    """An op of an MCP server that did not start is NOT_FOUND: say on stderr why its server is missing, as the REPL does."""
    from rich.console import Console
    from rich.text import Text

    server = op.split(".", 1)[0]
    for problem in gateway.registry.problems:
        if problem.source == f"upstream {server}" or problem.source.startswith(f"upstream {server} "):
            Console(stderr=True, highlight=False, soft_wrap=True).print(Text(f"{problem.source}: {problem.message}", style="yellow"))


def _print_curl(console: Console, envelope: dict[str, Any], as_json: bool) -> int:
    from opgate.core.executors.http import curl_command

    preview = (envelope.get("meta") or {}).get("preview") if envelope.get("ok") else None
    if not isinstance(preview, dict) or "url" not in preview:
        if envelope.get("ok"):
            envelope = {"op": envelope.get("op"), "ok": False, "error": {"code": "VALIDATION_ERROR", "message": f"{envelope.get('op')} is not an HTTP op, so there is no request to show as curl; use --dry-run", "details": {}, "help_path": envelope.get("op") or "root"}}
        _print(console, envelope, as_json)
        return 1
    console.file.write(curl_command(preview) + "\n")
    return 0


def _read_steps(source: str) -> tuple[Any, str | None]:
    from opgate.core import safe_json

    from opgate.core.exec._batch_steps import batch_document

    data = safe_json.loads(sys.stdin.buffer.read() if source == "-" else Path(source).read_bytes(), what="the batch", check_text=False)
    return batch_document(data)


def run_batch(args: argparse.Namespace, console: Console) -> int:
    from rich.text import Text

    from opgate.core import safe_json
    from opgate.core.exec._batch_steps import BatchFileError

    try:
        steps, on_error = _read_steps(args.file)
    except (OSError, safe_json.JsonInputError, BatchFileError) as exc:
        from opgate.core.echo_text import shortened_words  # an OSError names the file whole

        console.print(Text.assemble(("cannot read the batch: ", "red"), shortened_words(str(exc))))
        return 2
    gateway = make_gateway(args, allow_write=args.allow_write, approver=_approver(args, console), asker=terminal_asker())
    try:
        envelopes = gateway.batch(steps, on_error=args.on_error or on_error or "stop")
    finally:
        gateway.close()
    _print(console, envelopes, args.json)
    return 0 if all(e.get("ok") for e in envelopes) else 1


def run_demo(args: argparse.Namespace, console: Console) -> int:
    from opgate.core.store import StoreError, default_path, inspect_workspace, reset_demo
    from opgate.core.store._demo import read_workspace, refuse_unless_demo
    from opgate.core.store._locate import is_postgres_url

    from rich.text import Text

    from ._gateway_factory import configured_database

    chosen = configured_database(args)
    path = default_path() if chosen is None else (str(chosen) if is_postgres_url(str(chosen)) else Path(chosen))
    try:
        held = inspect_workspace(path)
        if held is not None and not args.force:
            refuse_unless_demo(held, read_workspace())
    except StoreError as exc:
        console.print(Text.assemble(("cannot reset:", "red"), f" {exc}"), highlight=False)  # exc names the path: text, not markup
        return 2
    if held is None:
        console.print(f"no workspace at {path} yet: creating the demo workspace there", markup=False)
    else:
        console.print(f"{path} holds {held.describe()}; the reset replaces all of it with the demo workspace", markup=False)
        if not args.yes and sys.stdin.isatty() and not _agreed(console):
            console.print("nothing was changed", markup=False)
            return 1
    try:
        store = reset_demo(path, force=args.force)
    except (StoreError, OSError) as exc:
        console.print(Text.assemble(("cannot reset: ", "red"), str(exc)))
        return 2
    store.close()
    now = inspect_workspace(path)
    console.print(Text(f"demo workspace reset at {path}: it now holds {now.describe() if now else 'nothing'}"))
    return 0


def _agreed(console: Console) -> bool:
    try:
        return console.input("Replace it? [y/N] ").strip().lower() in ("y", "yes")
    except (EOFError, KeyboardInterrupt):
        return False  # no answer is a no
