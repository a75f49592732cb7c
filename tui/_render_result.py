"""Envelopes and store diffs as Rich renderables, and the entities an envelope touched."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from opgate.core.diff_text import diff_is_empty, diff_lines

from ._palette import Palette
from ._plain import data_text, shown

__all__ = ["diff_is_empty", "meta_line", "render_diff", "render_error", "status_line", "touched_entities"]

_NAME_KEYS = ("name", "title", "text")


def render_diff(diff: dict[str, Any] | None, palette: Palette, *, names: dict[str, Any] | None = None) -> RenderableType:
    """The lines of :func:`opgate.core.diff_text.diff_lines`, coloured: names next to ids, created rows field by field."""
    lines = diff_lines(diff, names)
    if not lines:
        return Text("No changes to the store.", style="dim")
    styles = {
        "add": f"bold {palette.success}", "change": f"bold {palette.warning}", "remove": f"bold {palette.error}",
        "key": "bold", "before": palette.error, "after": palette.success, "name": "italic", "": "",
    }
    return Group(*(
        Padding(Text.assemble(*((shown(text), styles.get(role, "")) for text, role in line.segments)), (0, 0, 0, 4 * line.depth))
        for line in lines
    ))


def status_line(envelope: dict[str, Any], palette: Palette) -> Text:
    """``✓ op · dry-run · 12 ms`` or ``✗ CODE · op``; the trace id sits with the meta."""
    meta = envelope.get("meta") or {}
    if envelope.get("ok"):
        text = Text.assemble(("✓ ok ", f"bold {palette.success}"), (shown(envelope.get("op", "")), "bold"))
        if meta.get("dry_run_kind") == "preview":
            text.append("  preview: nothing was sent", style=f"bold {palette.warning}")
        elif meta.get("dry_run"):
            text.append("  dry-run: nothing was written", style=f"bold {palette.warning}")
    else:
        code = (envelope.get("error") or {}).get("code", "ERROR")
        text = Text.assemble((f"✗ {shown(code)} ", f"bold {palette.error}"), (shown(envelope.get("op", "")), "bold"))
    return text


def meta_line(envelope: dict[str, Any]) -> Text:
    meta = envelope.get("meta") or {}
    parts = []
    if "latency_ms" in meta:
        parts.append(f"{meta['latency_ms']:.1f} ms")
    if meta.get("trace_id"):
        parts.append(f"trace {meta['trace_id']}")
    if meta.get("truncated"):
        parts.append("result truncated")
    return Text(" · ".join(parts), style="dim")


def render_error(envelope: dict[str, Any], palette: Palette) -> RenderableType:
    """The message, each field error, and where to read more."""
    error = envelope.get("error") or {}
    details = error.get("details") or {}
    parts: list[RenderableType] = [data_text(error.get("message", ""), style=palette.error)]
    for row in details.get("field_errors") or []:
        parts.append(Padding(Text.assemble((f"{shown(row.get('field'))}: ", "bold"), shown(row.get("message", ""))), (0, 0, 0, 2)))
    if details.get("usage"):
        parts.append(Text.assemble(("usage: ", "bold"), (shown(details["usage"]), palette.accent)))
    if error.get("help_path"):
        parts.append(Text.assemble(("help: ", "bold"), shown(error["help_path"]), (" (F2 shows the op's help)", "dim")))
    return Group(*parts)


# Id arguments whose kind is not their prefix (as in the store's id pickers).
_ID_KINDS = {"parent": "document", "new_parent": "document", "old_parent": "document", "root": "document", "supporting_milestone": "milestone"}


def _kind_from_key(key: str) -> str:
    return key[:-1] if key.endswith("s") else key


def touched_entities(envelope: dict[str, Any]) -> list[tuple[str, str | None, str]]:
    """``(id, kind or None, name)`` for each id in ``meta.entities``; kinds and names read from the envelope.

    A kind is a guess (``{"document": {...}}`` says document); whoever opens the
    entity checks it against the ops that exist.
    """
    meta = envelope.get("meta") or {}
    ids = [i for i in meta.get("entities") or [] if isinstance(i, str)]
    wanted = set(ids)
    known: dict[str, tuple[str | None, str]] = {}

    def visit(node: Any, hint: str | None) -> None:
        if isinstance(node, dict):
            if node.get("id") in wanted:
                name = next((str(node[k]) for k in _NAME_KEYS if node.get(k)), "")
                old_kind, old_name = known.get(node["id"], (None, ""))
                kind = node.get("kind") if isinstance(node.get("kind"), str) else hint
                known[node["id"]] = (kind or old_kind, name or old_name)
            for key, value in node.items():
                if isinstance(value, str) and value in wanted and key.endswith("_id") and value not in known:
                    known[value] = (_ID_KINDS.get(key[:-3], key[:-3]), "")
                visit(value, _kind_from_key(key) if key not in ("row", "fields", "props") else node.get("kind"))
        elif isinstance(node, list):
            for item in node:
                visit(item, hint)

    visit(envelope.get("result"), None)
    visit(meta.get("diff"), None)
    return [(i, *known.get(i, (None, ""))) for i in ids]
