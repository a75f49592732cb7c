"""Help payloads: compact, machine-friendly dicts for each level of the tree."""

from __future__ import annotations

from typing import Any

from ..registry._record import OpRecord
from ._args import describe_args, usage_line

SHORT_DESCRIPTION_LIMIT = 160


def runs_on(record: OpRecord) -> dict[str, Any]:
    """Where the op runs, and for a browse-only op why it cannot (help, search and discovery all say it)."""
    binding = record.binding
    where: dict[str, Any] = {"executor": binding.kind, "runnable": binding.runnable}
    if binding.upstream:
        where["upstream"] = binding.upstream
    if not binding.runnable:
        where["reason"] = binding.why_not_runnable
    return where


def _dry_run_words(record: OpRecord) -> str:
    """What a dry-run of this write gives, as its executor declares it (docs/executors.md, "What dry-run means")."""
    if record.binding.kind == "store":
        return "previews the diff"  # rollback: the write runs in a transaction that is rolled back
    if record.binding.kind == "python" and record.metadata.supports_dry_run:
        return "has the tool rehearse the call without changing anything"  # native
    return "shows the request that would be sent, and sends nothing"  # preview: HTTP, MCP, handlers that cannot rehearse


def _auto_notes(record: OpRecord) -> list[str]:
    notes = list(record.notes)
    if not record.runnable:
        notes.insert(0, f"Browse only: {record.binding.why_not_runnable}.")
    if record.kind == "write":
        notes.append(f"Writes: runs only when allow_write is on; dry_run=true {_dry_run_words(record)}.")
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
    title = record.title or (record.annotations or {}).get("title")
    if isinstance(title, str) and title and title != record.summary:
        payload["title"] = title  # an upstream's display name, when the summary is not it
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
