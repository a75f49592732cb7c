"""The gateway mode: four tools (help, exec, batch, search) in front of every op.

The payload is the same whatever the catalogue: the map of the namespace
comes from ``help('')``, not from the descriptions. Kept small on purpose:
the whole set is measured by the modes benchmark against the 2,118 bytes a
production gateway's three tools cost.
"""

from __future__ import annotations

from typing import Any

from ._spec import ToolSpec

# The schemas are not closed (no additionalProperties: false) to save bytes on
# every turn; the call router rejects unknown arguments itself.
HELP_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "a group (onto.task.write) or an op"},
        "format": {"enum": ["short", "full"]},
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
        "state_digest": {"type": "string", "description": "a dry-run's; CONFLICT if changed"},
        # A dry-run's meta.id_seed: the real run then creates the ids the dry-run's diff showed.
        "id_seed": {"type": "string", "description": "a dry-run's; same new ids"},
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
        "limit": {"type": "integer", "minimum": 1, "maximum": 50},
        "cursor": {"type": "string"},
    },
}


# The descriptions tell a model how to discover cheaply (seed 000 §7.2): go
# straight to exec when the op is known, open help only when something is
# uncertain, and batch a multi-step job. They never name the catalogue's own
# groups, so the payload costs the same for 1 root or 40; help('') is the map.
GATEWAY_TOOLS = (
    ToolSpec(
        "help",
        "The op map, for when you are unsure: the op or entity is unclear, the args are, exec gave a validation error, "
        "or the user asks what is possible. help('') lists root groups; a group, its ops; an op, its usage and args.",
        HELP_SCHEMA,
        {"readOnlyHint": True, "title": "help"},
    ),
    ToolSpec(
        "exec",
        "Run an op: {op:'root.entity.action',args:{}}. Known op and args (from help, search or a past call)? "
        "Exec directly, no help first. Writes need allow_write. Errors say what to fix.",
        EXEC_SCHEMA,
        {"readOnlyHint": False, "destructiveHint": True, "title": "exec"},
    ),
    ToolSpec("batch", "Several help/exec steps in one call, one answer each: use it for any task of more than one step.", BATCH_SCHEMA, {"readOnlyHint": False, "title": "batch"}),
    ToolSpec("search", "Find ops by what they do when the name is unknown; ranked with confidence.", SEARCH_SCHEMA, {"readOnlyHint": True, "title": "search"}),
)


def gateway_tools(gateway: Any) -> list[ToolSpec]:
    """The four gateway tools. ``gateway`` is accepted for symmetry with the other modes: nothing here depends on it."""
    return list(GATEWAY_TOOLS)
