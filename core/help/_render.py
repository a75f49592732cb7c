"""Help payloads: compact, machine-friendly dicts for each level of the tree."""

from __future__ import annotations

from typing import Any

from ..registry._record import OpRecord
from ._args import describe_args, usage_line
from ._tree import HelpNode

# A node with this many ops or fewer lists them all; a bigger one lists its subgroups.
FLAT_LISTING_LIMIT = 20
# ``<group>.read`` and ``<group>.write`` list a group's ops by kind, unless a real op has that name.
KIND_SUFFIXES = ("read", "write")
SHORT_DESCRIPTION_LIMIT = 160
# The root listing names each group's biggest subgroups, so one help('') call maps the namespace.
ROOT_SUBGROUP_LIMIT = 14


def _op_line(record: OpRecord) -> dict[str, Any]:
    line: dict[str, Any] = {"op": record.op, "kind": record.kind, "summary": record.summary}
    extra = [b for b in record.badges if b not in ("read", "write")]
    if extra:
        line["badges"] = extra
    return line


def _group_line(node: HelpNode) -> dict[str, Any]:
    return {"name": node.name, "ops": node.total, "read": node.reads, "write": node.writes}


def render_root(root: HelpNode, summaries: dict[str, str]) -> dict[str, Any]:
    groups = []
    for name in sorted(root.children):
        child = root.children[name]
        line: dict[str, Any] = {"name": name, "ops": child.total}
        if name in summaries:
            line["summary"] = summaries[name]
        subgroups = sorted((c for c in child.children.values() if c.children), key=lambda c: (-c.total, c.name))
        if subgroups:
            line["holds"] = [c.name for c in subgroups[:ROOT_SUBGROUP_LIMIT]] + (["…"] if len(subgroups) > ROOT_SUBGROUP_LIMIT else [])
        groups.append(line)
    return {
        "ok": True,
        "path": "root",
        "type": "root",
        "ops": root.total,
        "groups": groups,
        "next": "help(path=<group>) lists a group; exec(op, args) runs an op",
    }


def render_group(node: HelpNode, summaries: dict[str, str], *, kind: str | None = None, include_schemas: bool = False) -> dict[str, Any]:
    """A group: its ops when there are few, its subgroups (with counts) when there are many."""
    payload: dict[str, Any] = {"ok": True, "path": node.path + (f".{kind}" if kind else ""), "type": "group"}
    if node.path in summaries:
        payload["summary"] = summaries[node.path]
    payload["ops"] = node.total if kind is None else (node.reads if kind == "read" else node.writes)
    if kind is not None or node.total <= FLAT_LISTING_LIMIT:
        records = [r for r in node.ops() if kind is None or r.kind == kind]
        payload["list"] = [_op_line(r) for r in records]
        if include_schemas:
            payload["schemas"] = {r.op: r.parameters for r in records}
        if kind is None and node.reads and node.writes and not set(KIND_SUFFIXES) & set(node.children):
            payload["next"] = f"help('{node.path}.read') or help('{node.path}.write') splits them by kind"
        return payload
    payload["groups"] = [_group_line(node.children[n]) for n in sorted(node.children) if node.children[n].children]
    direct = [node.children[n].record for n in sorted(node.children) if node.children[n].record is not None]
    if direct:
        payload["list"] = [_op_line(r) for r in direct if r is not None]
    payload["next"] = f"help('{node.path}.<name>') opens a group"
    return payload


def runs_on(record: OpRecord) -> dict[str, Any]:
    """Where the op runs, and for a browse-only op why it cannot (help, search and discovery all say it)."""
    binding = record.binding
    where: dict[str, Any] = {"executor": binding.kind, "runnable": binding.runnable}
    if binding.upstream:
        where["upstream"] = binding.upstream
    if not binding.runnable:
        where["reason"] = binding.why_not_runnable
    return where


def _auto_notes(record: OpRecord) -> list[str]:
    notes = list(record.notes)
    if not record.runnable:
        notes.insert(0, f"Browse only: {record.binding.why_not_runnable}.")
    if record.kind == "write":
        notes.append("Writes: runs only when allow_write is on; dry_run=true previews the diff.")
    if record.requires_confirmation:
        notes.append("Needs a person's confirmation before a real run.")
    notes += list(record.warnings)
    return notes


def render_op(record: OpRecord, *, full: bool, include_examples: bool, include_schemas: bool) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "ok": True,
        "path": record.op,
        "type": "op",
        "op": record.op,
        "tool_name": record.tool_name,
        "summary": record.summary,
        "kind": record.kind,
    }
    if len(record.badges) > 1:
        payload["badges"] = list(record.badges)
    if not record.runnable or full:
        payload["runs_on"] = runs_on(record)
    payload["usage"] = usage_line(record)
    payload["args"] = describe_args(record.parameters, description_limit=None if full else SHORT_DESCRIPTION_LIMIT)
    notes = _auto_notes(record)
    if notes:
        payload["notes"] = notes
    if record.policy:
        payload["policy"] = record.policy
    if include_examples and record.examples:
        payload["examples"] = [dict(e) for e in record.examples[: None if full else 2]]
    if full:
        payload["description"] = record.description
        payload["metadata"] = record.metadata.to_dict()
        if record.result_schema:
            payload["result_schema"] = record.result_schema
        if record.http:
            payload["http"] = record.http
    if full or include_schemas:
        payload["schema"] = record.parameters
    return payload
