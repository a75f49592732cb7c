"""Rendering exec envelopes for people: status line, result, diff and warnings."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ._json_view import JsonView


def _json(value: Any) -> JsonView:
    return JsonView(json.dumps(value, indent=2, ensure_ascii=False, default=str))


def render_json(value: Any) -> RenderableType:
    """A JSON value, highlighted; its text is data, never markup."""
    return _json(value)


_ROLE_STYLES = {"add": "bold green", "change": "bold yellow", "remove": "bold red", "key": "bold", "before": "red", "after": "green", "name": "italic"}


def render_diff(diff: dict[str, Any], names: dict[str, Any] | None = None) -> RenderableType:
    """The lines of :func:`opgate.core.diff_text.diff_lines`: names next to ids, created rows field by field."""
    from opgate.core.diff_text import diff_lines

    lines = [
        Text.assemble("    " * line.depth, *((text, _ROLE_STYLES.get(role, "")) for text, role in line.segments))
        for line in diff_lines(diff, names)
    ]
    return Group(*lines) if lines else Text("no changes", style="dim")


def render_envelope(envelope: dict[str, Any], *, help_command: str = "opgate help") -> RenderableType:
    """An envelope for people. ``help_command`` is how this front end asks for help (the REPL says ``help``)."""
    meta = envelope.get("meta") or {}
    parts: list[RenderableType] = []
    if envelope.get("ok"):
        status = Text(f"ok  {envelope.get('op', '')}", style="bold green")
        if meta.get("dry_run_kind") == "preview":
            status.append("  (preview: nothing was sent)", style="bold yellow")
        elif meta.get("dry_run"):
            status.append("  (dry-run: nothing was written)", style="bold yellow")
        if meta.get("idempotent_replay"):
            status.append("  (replayed)", style="cyan")
        if isinstance(meta.get("http"), dict) and meta["http"].get("status") is not None:
            status.append(f"  HTTP {meta['http']['status']}", style="cyan")
        if "latency_ms" in meta:
            status.append(f"  {meta['latency_ms']} ms  {meta.get('trace_id', '')}", style="dim")
        parts += [status, _json(envelope.get("result"))]
        if meta.get("diff") is not None:
            parts += [Text("diff", style="bold"), render_diff(meta["diff"], meta.get("names"))]
        if meta.get("preview") is not None:
            parts += [Text("would send", style="bold"), _json(meta["preview"])]
        if meta.get("state_digest") and meta.get("dry_run"):
            parts.append(Text(f"state digest: {meta['state_digest']}", style="dim"))
    elif ((envelope.get("error") or {}).get("details") or {}).get("cancelled"):
        # The person said no: not an error, and there is nothing to fix.
        parts.append(Text(f"cancelled, nothing written  {envelope.get('op', '')}", style="bold yellow"))
    else:
        error = envelope.get("error") or {}
        parts.append(Text(f"{error.get('code')}  {envelope.get('op', '')}", style="bold red"))
        parts.append(Text(error.get("message", "")))
        details = error.get("details") or {}
        for field_error in details.get("field_errors", []):
            parts.append(Text(f"  {field_error.get('field')}: {field_error.get('message')}", style="red"))
        for key in ("usage", "example", "suggestions"):
            if key in details:
                parts += [Text(key, style="bold"), _json(details[key]) if not isinstance(details[key], str) else Text(details[key])]
        parts.append(Text(f"help: {help_command} {error.get('help_path', '')}", style="dim"))
    for warning in meta.get("warnings", []):
        parts.append(Text(f"warning: {warning}", style="yellow"))
    return Group(*parts)
