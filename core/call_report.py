"""A call written down for a bug report or a sign-off: the op, its arguments, the envelope and the diff.

JSON keeps everything a program needs; Markdown reads well in an issue or a
review, with the diff in the same words the explorer and the REPL show.
"""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from .diff_text import diff_lines

FORMATS = {".json": "json", ".md": "markdown", ".markdown": "markdown"}


def report_format(path: str | Path) -> str | None:
    """``json`` or ``markdown`` from the file's suffix; None for a suffix we do not write."""
    return FORMATS.get(Path(path).suffix.lower())


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _outcome(envelope: dict[str, Any]) -> str:
    meta = envelope.get("meta") or {}
    if not envelope.get("ok"):
        return f"failed: {(envelope.get('error') or {}).get('code', 'ERROR')}"
    if meta.get("dry_run_kind") == "preview":
        return "preview, nothing was sent"
    return "dry-run, nothing was written" if meta.get("dry_run") else "ran for real"


def report_json(op: str, args: dict[str, Any], envelope: dict[str, Any], *, written_at: str | None = None) -> str:
    report = {"op": op, "args": args, "outcome": _outcome(envelope), "written_at": written_at or _now(), "envelope": envelope}
    return json.dumps(report, indent=2, ensure_ascii=False, default=str) + "\n"


def _fenced(value: Any) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False, default=str)
    fence = "```"
    while fence in text:  # text from the store may hold fences of its own
        fence += "`"
    return f"{fence}json\n{text}\n{fence}"


def report_markdown(op: str, args: dict[str, Any], envelope: dict[str, Any], *, written_at: str | None = None) -> str:
    meta = envelope.get("meta") or {}
    lines = [f"# {op}: {_outcome(envelope)}", "", f"- written at: {written_at or _now()}"]
    for key, label in (("trace_id", "trace"), ("state_digest", "state digest"), ("id_seed", "id seed")):
        if meta.get(key):
            lines.append(f"- {label}: `{meta[key]}`")
    lines += ["", "## Arguments", "", _fenced(args), ""]
    if not envelope.get("ok"):
        error = envelope.get("error") or {}
        lines += ["## Error", "", f"{error.get('code')}: {error.get('message')}", ""]
        lines += [f"- `{row.get('field')}`: {row.get('message')}" for row in (error.get("details") or {}).get("field_errors") or []]
        lines.append("")
    if meta.get("diff") is not None:
        changes = diff_lines(meta["diff"], meta.get("names"))
        lines += ["## What changes" if meta.get("dry_run") else "## What changed", ""]
        lines += [f"{'    ' * line.depth}- {line.text}" for line in changes] or ["No changes to the store."]
        lines.append("")
    for warning in meta.get("warnings") or []:
        lines.append(f"> warning: {warning}")
    lines += ["## Envelope", "", _fenced(envelope), ""]
    return "\n".join(lines)


def write_report(path: str | Path, op: str, args: dict[str, Any], envelope: dict[str, Any]) -> Path:
    """Write the report in the format the suffix names (``.json``, ``.md``); raise ValueError for another suffix."""
    target = Path(path).expanduser()
    fmt = report_format(target)
    if fmt is None:
        raise ValueError(f"{target.name}: name a .json or .md file")
    text = report_json(op, args, envelope) if fmt == "json" else report_markdown(op, args, envelope)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    return target
