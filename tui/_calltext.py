"""A call as text to copy: the exec payload as JSON, an ``opgate exec`` line, or Python."""

from __future__ import annotations

import json
import pprint
import shlex
from typing import Any

from opgate.views._envelope_parts import json_text


def payload(op: str, args: dict[str, Any]) -> dict[str, Any]:
    """Exactly what the explorer passes to ``gw.exec``."""
    return {"op": op, "args": args}


def as_json(op: str, args: dict[str, Any]) -> str:
    return json_text(payload(op, args))


def as_cli(op: str, args: dict[str, Any], *, dry_run: bool = False, global_options: list[str] | None = None) -> str:
    """``opgate [--catalog ... --db ...] exec OP '{...}'`` (one JSON object argument: exact for any value).

    ``global_options`` are the options the explorer itself was started with,
    so that the copied command runs against the same catalogue and workspace.
    """
    words = ["opgate", *(global_options or []), "exec", op]
    if args:
        words.append(json_text(args, indent=None, separators=(",", ":")))
    if dry_run:
        words.append("--dry-run")
    return shlex.join(words)


def as_python(op: str, args: dict[str, Any], *, dry_run: bool = False) -> str:
    """``gw.exec("op", {...})`` with Python literals (True, None), ready for a session with ``gw``."""
    body = pprint.pformat(args, indent=1, width=88, sort_dicts=False)
    extra = ", dry_run=True" if dry_run else ""
    return f"gw.exec({json.dumps(op)}, {body}{extra})"


def render(fmt: str, op: str, args: dict[str, Any], *, dry_run: bool = False, global_options: list[str] | None = None) -> str:
    if fmt == "json":
        return as_json(op, args)
    if fmt == "cli":
        return as_cli(op, args, dry_run=dry_run, global_options=global_options)
    if fmt == "python":
        return as_python(op, args, dry_run=dry_run)
    raise ValueError(f"unknown copy format {fmt!r}; use json, cli or python")
