"""Envelopes and store diffs as Rich renderables, and the entities an envelope touched."""

from __future__ import annotations

import json
from typing import Any

from rich.console import Group, RenderableType
from rich.padding import Padding
from rich.text import Text

from ._palette import Palette

DIFF_SECTIONS = ("created", "updated", "deleted", "edges_added", "edges_removed", "links_added", "links_removed")
_NAME_KEYS = ("name", "title", "text")


def _short(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str) if not isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 60 else text[:57] + "…"


def _name_of(row: Any) -> str:
    if isinstance(row, dict):
        for key in _NAME_KEYS:
            if row.get(key):
                return f" {_short(row[key])}"
    return ""


def diff_is_empty(diff: dict[str, Any] | None) -> bool:
    return not diff or not any(diff.get(section) for section in DIFF_SECTIONS)


def render_diff(diff: dict[str, Any] | None, palette: Palette, *, names: dict[str, str] | None = None) -> RenderableType:
    """created / updated (field: before → after) / deleted / edges / links, one line per change."""
    names = names or {}
    if diff_is_empty(diff):
        return Text("No changes to the store.", style="dim")
    assert diff is not None
    lines: list[RenderableType] = []
    add, change, remove = f"bold {palette.success}", f"bold {palette.warning}", f"bold {palette.error}"
    for entry in diff.get("created", []):
        lines.append(Text.assemble(("+ created ", add), f"{entry.get('kind')} {entry.get('id')}", (_name_of(entry.get("row")), "italic")))
    for entry in diff.get("updated", []):
        label = names.get(str(entry.get("id")), "")
        lines.append(Text.assemble(("~ updated ", change), f"{entry.get('kind')} {entry.get('id')}", (f" {label}" if label else "", "italic")))
        for field_name, pair in (entry.get("fields") or {}).items():
            lines.append(Padding(Text.assemble((f"{field_name}: ", "bold"), (_short(pair.get("before")), palette.error), " → ", (_short(pair.get("after")), palette.success)), (0, 0, 0, 4)))
    for entry in diff.get("deleted", []):
        lines.append(Text.assemble(("- deleted ", remove), f"{entry.get('kind')} {entry.get('id')}", (_name_of(entry.get("row")), "italic")))
    for key, sign, style in (("edges_added", "+ edge ", add), ("edges_removed", "- edge ", remove)):
        for edge in diff.get(key, []):
            lines.append(Text.assemble((sign, style), f"{edge.get('src_kind')} {edge.get('src_id')} ", (f"─{edge.get('rel')}→ ", "bold"), f"{edge.get('dst_kind')} {edge.get('dst_id')}"))
    for key, sign, style in (("links_added", "+ link ", add), ("links_removed", "- link ", remove)):
        for link in diff.get(key, []):
            lines.append(Text.assemble((sign, style), f"task {link.get('task_id')} ⇄ document {link.get('document_id')}", (f" ({link.get('role')})" if link.get("role") else "", "dim")))
    return Group(*lines)


def status_line(envelope: dict[str, Any], palette: Palette) -> Text:
    """``✓ op · dry-run · 12 ms`` or ``✗ CODE · op``; the trace id sits with the meta."""
    meta = envelope.get("meta") or {}
    if envelope.get("ok"):
        text = Text.assemble(("✓ ok ", f"bold {palette.success}"), (str(envelope.get("op", "")), "bold"))
        if meta.get("dry_run_kind") == "preview":
            text.append("  preview: nothing was sent", style=f"bold {palette.warning}")
        elif meta.get("dry_run"):
            text.append("  dry-run: nothing was written", style=f"bold {palette.warning}")
    else:
        code = (envelope.get("error") or {}).get("code", "ERROR")
        text = Text.assemble((f"✗ {code} ", f"bold {palette.error}"), (str(envelope.get("op", "")), "bold"))
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
    parts: list[RenderableType] = [Text(str(error.get("message", "")), style=palette.error)]
    for row in details.get("field_errors") or []:
        parts.append(Padding(Text.assemble((f"{row.get('field')}: ", "bold"), str(row.get("message", ""))), (0, 0, 0, 2)))
    if details.get("usage"):
        parts.append(Text.assemble(("usage: ", "bold"), (str(details["usage"]), palette.accent)))
    if error.get("help_path"):
        parts.append(Text.assemble(("help: ", "bold"), str(error["help_path"]), (" (F2 shows the op's help)", "dim")))
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
