"""A store diff as lines a person can read: names next to ids, every field of what a write creates.

Front ends style the segments (the explorer and the REPL with Rich, exports
as Markdown); the words and their order live here once. A segment is
``(text, role)``; roles are ``add``, ``change``, ``remove`` (the verb),
``key`` (a field name), ``before``, ``after``, ``name`` and ``""`` (plain).
``names`` is the ``meta.names`` a write's envelope carries:
``{id: {"kind": ..., "name": ...}}``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

Segment = tuple[str, str]
Names = dict[str, Any]

SECTIONS = ("created", "updated", "deleted", "edges_added", "edges_removed", "links_added", "links_removed")
# Set by the store on every row: shown once in the header, not as fields.
_HIDDEN_FIELDS = frozenset({"id", "created_at", "updated_at"})
# A null reference means "no parent" for a document, "none" elsewhere.
_NULL_REFERENCE = {"parent_id": "(root)"}
MAX_VALUE_CHARS = 60


@dataclass(frozen=True)
class DiffLine:
    """One line of a diff; ``depth`` 1 is a field of the entity on the line above."""

    segments: tuple[Segment, ...]
    depth: int = 0

    @property
    def text(self) -> str:
        return "".join(text for text, _ in self.segments)


def short_id(value: str) -> str:
    """``50000000-…-000000000004`` as ``5000…0004``: enough to tell ids apart next to a name."""
    return value if len(value) <= 12 else f"{value[:4]}…{value[-4:]}"


def _value(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_VALUE_CHARS else text[: MAX_VALUE_CHARS - 1] + "…"


def _name_of(entity_id: str, names: Names) -> str:
    entry = names.get(entity_id)
    name = entry.get("name") if isinstance(entry, dict) else entry
    return str(name) if name else ""


def entity_label(entity_id: Any, names: Names, *, full: bool = False) -> tuple[Segment, ...]:
    """``"Engineering" 5000…0004`` (the name when known, then the id)."""
    if not isinstance(entity_id, str):
        return ((_value(entity_id), ""),)
    shown = entity_id if full else short_id(entity_id)
    name = _name_of(entity_id, names)
    return ((_value(name), "name"), (f" {shown}", "")) if name else ((shown, ""),)


def field_label(field: str) -> str:
    """``parent_id`` reads as ``parent``: the value beside it says which entity."""
    return field[:-3] if field.endswith("_id") else field


def field_value(field: str, value: Any, names: Names, role: str) -> tuple[Segment, ...]:
    if field.endswith("_id"):
        if value is None:
            return ((_NULL_REFERENCE.get(field, "(none)"), role),)
        if isinstance(value, str):
            label = entity_label(value, names)
            return tuple((text, role if kind == "" else kind) for text, kind in label)
    return ((_value(value), role),)


def _header(verb: str, role: str, kind: Any, entity_id: Any, names: Names) -> DiffLine:
    return DiffLine(((f"{verb} ", role), (f"{kind} ", ""), *entity_label(entity_id, names, full=True)))


def _row_fields(row: dict[str, Any], names: Names) -> list[DiffLine]:
    return [
        DiffLine(((f"{field_label(name)}: ", "key"), *field_value(name, value, names, "after")), depth=1)
        for name, value in row.items() if name not in _HIDDEN_FIELDS
    ]


def _edge(sign: str, role: str, edge: dict[str, Any], names: Names) -> DiffLine:
    return DiffLine((
        (f"{sign} edge ", role), (f"{edge.get('src_kind')} ", ""), *entity_label(edge.get("src_id"), names),
        (f" ─{edge.get('rel')}→ ", "key"), (f"{edge.get('dst_kind')} ", ""), *entity_label(edge.get("dst_id"), names),
    ))


def _link(sign: str, role: str, link: dict[str, Any], names: Names) -> DiffLine:
    tail = ((f" ({link['role']})", ""),) if link.get("role") else ()
    return DiffLine((
        (f"{sign} link ", role), ("task ", ""), *entity_label(link.get("task_id"), names),
        (" ⇄ ", "key"), ("document ", ""), *entity_label(link.get("document_id"), names), *tail,
    ))


def diff_is_empty(diff: dict[str, Any] | None) -> bool:
    return not diff or not any(diff.get(section) for section in SECTIONS)


def diff_lines(diff: dict[str, Any] | None, names: Names | None = None) -> list[DiffLine]:
    """Every change in ``diff``, in the order of :data:`SECTIONS`; created and deleted rows field by field."""
    names = names or {}
    if diff_is_empty(diff):
        return []
    assert diff is not None
    lines: list[DiffLine] = []
    for entry in diff.get("created", []):
        lines.append(_header("+ created", "add", entry.get("kind"), entry.get("id"), names))
        lines += _row_fields(entry.get("row") or {}, names)
    for entry in diff.get("updated", []):
        lines.append(_header("~ updated", "change", entry.get("kind"), entry.get("id"), names))
        for name, pair in (entry.get("fields") or {}).items():
            pair = pair if isinstance(pair, dict) else {"before": None, "after": pair}
            lines.append(DiffLine((
                (f"{field_label(name)}: ", "key"), *field_value(name, pair.get("before"), names, "before"),
                (" → ", ""), *field_value(name, pair.get("after"), names, "after"),
            ), depth=1))
    for entry in diff.get("deleted", []):
        lines.append(_header("- deleted", "remove", entry.get("kind"), entry.get("id"), names))
    for key, sign, role in (("edges_added", "+", "add"), ("edges_removed", "-", "remove")):
        lines += [_edge(sign, role, edge, names) for edge in diff.get(key, [])]
    for key, sign, role in (("links_added", "+", "add"), ("links_removed", "-", "remove")):
        lines += [_link(sign, role, link, names) for link in diff.get(key, [])]
    return lines
