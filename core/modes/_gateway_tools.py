"""The gateway mode: four tools (help, exec, batch, search) in front of every op.

The descriptions carry the map of the namespace (the root groups and their
entity groups), so a model can call exec on an obvious op without a first
help call. Kept small on purpose: the whole set is measured by the modes
benchmark against the 2,118 bytes a production gateway's three tools cost.
"""

from __future__ import annotations

from typing import Any

from ._spec import ToolSpec

_MAP_ENTITY_LIMIT = 14

# The schemas are not closed (no additionalProperties: false) to save bytes on
# every turn; the call router rejects unknown arguments itself.
HELP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "'' lists groups; or a group (onto.task.write), or an op"},
        "format": {"type": "string", "enum": ["short", "full"]},
        "include_examples": {"type": "boolean"},
        "include_schemas": {"type": "boolean"},
        "cursor": {"type": "string"},
    },
}
EXEC_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["op"],
    "properties": {
        "op": {"type": "string"},
        "args": {"type": "object"},
        "dry_run": {"type": "boolean", "description": "report the diff, keep nothing"},
        "idempotency_key": {"type": "string", "description": "a repeat replays the first answer"},
        "state_digest": {"type": "string", "description": "a dry-run's; CONFLICT if the state changed"},
    },
}
BATCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["steps"],
    "properties": {
        "steps": {
            "type": "array",
            "items": {"type": "object", "properties": {"tool": {"enum": ["help", "exec"]}, "args": {"type": "object"}}},
            "description": "'$0.result.tasks[0].id' in args is step 0's value",
        },
        "on_error": {"enum": ["stop", "continue"]},
    },
}
SEARCH_SCHEMA: dict[str, Any] = {
    "type": "object",
    "required": ["query"],
    "properties": {
        "query": {"type": "string", "description": "the task, in words"},
        "path": {"type": "string", "description": "only under this group"},
        "kind": {"enum": ["read", "write"]},
        "limit": {"type": "integer", "maximum": 50},
        "cursor": {"type": "string"},
    },
}


def namespace_map(gateway: Any) -> str:
    """``onto(63: task, project, ...), util(5)``: the root groups and their biggest entity groups."""
    parts = []
    root = gateway.help_tree.root
    for name in sorted(root.children):
        node = root.children[name]
        groups = sorted((c for c in node.children.values() if c.children), key=lambda c: (-c.total, c.name))
        names = ",".join(c.name for c in groups[:_MAP_ENTITY_LIMIT])
        more = "…" if len(groups) > _MAP_ENTITY_LIMIT else ""
        parts.append(f"{name}({node.total}{': ' + names + more if names else ''})")
    return "; ".join(parts)


def gateway_tools(gateway: Any) -> list[ToolSpec]:
    ops = f"Ops: {namespace_map(gateway)}."
    return [
        ToolSpec("help", f"Browse ops: groups, then an op's usage, args, examples. {ops}", HELP_SCHEMA, {"readOnlyHint": True, "title": "help"}),
        ToolSpec(
            "exec",
            "Run an op: {op:'onto.task.list',args:{}}. Writes need allow_write. Errors name the fields to fix and a help path.",
            EXEC_SCHEMA,
            {"readOnlyHint": False, "destructiveHint": True, "title": "exec"},
        ),
        ToolSpec("batch", "Several help/exec steps in one call; one answer per step.", BATCH_SCHEMA, {"readOnlyHint": False, "title": "batch"}),
        ToolSpec("search", "Find ops by what they do; ranked with confidence.", SEARCH_SCHEMA, {"readOnlyHint": True, "title": "search"}),
    ]
