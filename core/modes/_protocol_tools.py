"""The protocol mode: the discovery protocol's five operations offered as tools.

A model navigates categories (``list``), searches (``search_tool_by_category``,
``search_nodes``), reads one op's schema (``expand_tool``) and runs it
(``call_tool``, which goes through exec). Schemas come only from
``expand_tool``, so what the model sees up front stays the same size
whatever the catalogue.
"""

from __future__ import annotations

from ..discovery import PROTOCOL_SCHEMAS
from ._spec import ToolSpec

_DESCRIPTIONS = {
    "list": "Browse categories: child categories and tool pointers under path ([] is the root); filter by tags or query; page with cursor.",
    "search_tool_by_category": "Find tools by what they do, optionally inside one category; ranked pointers with confidence.",
    "search_nodes": "Find categories when you do not know where to start.",
    "expand_tool": "Read one tool's argument schema, usage and examples. Do this before call_tool.",
    "call_tool": "Run a tool by tool_id with arguments that fit its schema; dry_run previews a write.",
}
_READ_ONLY = {"list", "search_tool_by_category", "search_nodes", "expand_tool"}

PROTOCOL_TOOLS: tuple[ToolSpec, ...] = tuple(
    ToolSpec(name, _DESCRIPTIONS[name], PROTOCOL_SCHEMAS[name], {"readOnlyHint": name in _READ_ONLY, "title": name})
    for name in PROTOCOL_SCHEMAS
)
"""One tool per protocol operation, in the protocol's order."""
