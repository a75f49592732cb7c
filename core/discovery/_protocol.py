"""The discovery protocol: list, search_tool_by_category, search_nodes, expand_tool, call_tool.

Category paths are lists of segments (``["onto", "task"]``) or dotted
strings; tool ids are op names. Limits default to 10 and stop at 50; paging
uses opaque cursors. Errors carry a code (``NO_MATCH_IN_CATEGORY``,
``UNKNOWN_PATH``, ``TOOL_NOT_FOUND``, ``NOT_AUTHORIZED``), a message, hints
and the next action. Ops outside the caller's scope do not exist here, as in
help: naming one is ``TOOL_NOT_FOUND``. ``NOT_AUTHORIZED`` is for a visible
op the caller may not run as asked (a write while writes are off, a
confirmation nobody gave). ``call_tool`` goes through exec, never around it.
Each operation is recorded by telemetry (search -> choose -> expand -> call
can be read back from the call log).
"""

from __future__ import annotations

from typing import Any

from .._cursor import BadCursor, make_cursor, read_cursor
from ..echo_text import quoted
from ._recorded import recorded

DEFAULT_LIMIT = 10
MAX_LIMIT = 50
# list(query=...) filters a group's ops: below this confidence an op is left out
# of the listing. Search itself returns ranked pointers with no cut-off.
MATCH_FLOOR = 0.15


def _error(code: str, message: str, hints: list[Any], next_action: str) -> dict[str, Any]:
    return {"ok": False, "error": {"code": code, "message": message, "hints": hints, "next_action": next_action}}


def _segments(path: Any) -> list[str]:
    if path is None or path == "":
        return []
    if isinstance(path, str):
        return [p for p in path.strip(".").split(".") if p]
    if isinstance(path, (list, tuple)) and all(isinstance(p, str) for p in path):
        return [p for part in path for p in part.split(".") if p]
    raise TypeError("a path is a list of names or a dotted string")


def _argument_problem(operation: str, arguments: dict[str, Any]) -> dict[str, Any] | None:
    """A VALIDATION_ERROR answer when the arguments do not fit the operation's schema."""
    from .._jsonschema import Draft202012Validator

    error = next(iter(Draft202012Validator(PROTOCOL_SCHEMAS[operation]).iter_errors(arguments)), None)
    if error is None:
        return None
    where = ".".join(str(p) for p in error.absolute_path) or "arguments"
    return _error("VALIDATION_ERROR", f"{operation}: {where}: {error.message}", [], f"{operation}(...) with the types its schema gives")


def _limit(limit: Any) -> int:
    try:
        return max(1, min(MAX_LIMIT, int(limit if limit is not None else DEFAULT_LIMIT)))
    except (TypeError, ValueError):
        return DEFAULT_LIMIT


class Discovery:
    """The protocol over one Gateway (its registry, scope, search index and exec)."""

    def __init__(self, gateway: Any, *, session: Any = None):
        self.gateway = gateway
        self.session = session  # the caller's Session for call_tool; None: the gateway's own

    # -- helpers -------------------------------------------------------------------

    def _node(self, segments: list[str]):
        return self.gateway.help_tree.node(".".join(segments)) if segments else self.gateway.help_tree.root

    def _pointer(self, record: Any, confidence: float | None = None) -> dict[str, Any]:
        pointer = {"tool_id": record.op, "path": record.op.split(".")[:-1], "summary": record.summary, "tags": list(record.metadata.tags), "kind": record.kind}
        if not record.runnable:
            pointer["runnable"] = False
        if confidence is not None:
            pointer["confidence"] = confidence
        return pointer

    def _unknown_path(self, segments: list[str]) -> dict[str, Any]:
        dotted = ".".join(segments)
        hints = self.gateway.help_closest_paths(dotted)
        nearest = hints[0] if hints else ""
        return _error(
            "UNKNOWN_PATH", f"There is no category {quoted(dotted)}.", [h.split(".") for h in hints] or [[g] for g in sorted(self.gateway.help_tree.root.children)],
            f"list(path={nearest.split('.') if nearest else []})",
        )

    def _page(self, items: list[Any], offset: int, limit: int, request: Any) -> tuple[list[Any], str | None]:
        page = items[offset : offset + limit]
        more = offset + limit < len(items)
        return page, make_cursor(offset + limit, self.gateway.registry.version, request) if more else None

    # -- the operations ------------------------------------------------------------------

    @recorded
    def list(self, path: Any = None, tags: list[str] | None = None, query: str | None = None, limit: Any = None, cursor: str | None = None) -> dict[str, Any]:
        problem = _argument_problem("list", {"path": path, "tags": tags, "query": query, "limit": limit, "cursor": cursor})
        if problem:
            return problem
        try:
            segments = _segments(path)
        except TypeError as exc:
            return _error("UNKNOWN_PATH", str(exc), [], "list(path=[])")
        node = self._node(segments)
        if node is None or (segments and not node.children and node.record is not None):
            return self._unknown_path(segments)
        limit = _limit(limit)
        request = {"l": segments, "t": sorted(tags or []), "q": query or ""}
        try:
            offset = read_cursor(cursor, self.gateway.registry.version, request)
        except BadCursor as exc:
            return _error("VALIDATION_ERROR", str(exc), [], f"list(path={segments})")
        summaries = self.gateway.registry.group_summaries
        nodes = [
            {"name": child.name, "path": child.path.split("."), "summary": summaries.get(child.path, f"{child.total} ops"), "ops": child.total}
            for name, child in sorted(node.children.items()) if child.children
        ]
        if query:
            hits = self.gateway.search_hits(query, path=".".join(segments) or None, limit=MAX_LIMIT, min_confidence=MATCH_FLOOR)
            records = [(self.gateway.registry.get(h.op), h.confidence) for h in hits]
        else:
            records = [(child.record, None) for _, child in sorted(node.children.items()) if child.record is not None]
        if tags:
            wanted = set(tags)
            records = [(r, c) for r, c in records if wanted & set(r.metadata.tags)]
        tools, next_cursor = self._page([self._pointer(r, c) for r, c in records], offset, limit, request)
        return {"ok": True, "path": segments, "nodes": nodes if offset == 0 else [], "tools": tools, "next_cursor": next_cursor}

    @recorded
    def search_tool_by_category(self, query: str, category_path: Any = None, limit: Any = None, cursor: str | None = None) -> dict[str, Any]:
        problem = _argument_problem("search_tool_by_category", {"query": query, "category_path": category_path, "limit": limit, "cursor": cursor})
        if problem:
            return problem
        try:
            segments = _segments(category_path)
        except TypeError as exc:
            return _error("UNKNOWN_PATH", str(exc), [], "search_nodes(query=...)")
        if segments and self._node(segments) is None:
            return self._unknown_path(segments)
        limit = _limit(limit)
        request = {"s": segments, "q": query}
        try:
            offset = read_cursor(cursor, self.gateway.registry.version, request)
        except BadCursor as exc:
            return _error("VALIDATION_ERROR", str(exc), [], "search_tool_by_category without a cursor")
        hits = self.gateway.search_hits(query or "", path=".".join(segments) or None, limit=limit + 1, offset=offset)
        if not hits and offset == 0:
            elsewhere = self.gateway.search_node_hits(query or "", limit=3)
            hints = [h.path.split(".") for h in elsewhere]
            action = f"search_tool_by_category(query={quoted(query)}, category_path={hints[0]})" if hints else "list(path=[])"
            return _error("NO_MATCH_IN_CATEGORY", f"No tool under {quoted('.'.join(segments)) if segments else 'the root'} matches {quoted(query)}.", hints, action)
        more = len(hits) > limit
        results = [self._pointer(self.gateway.registry.get(h.op), h.confidence) for h in hits[:limit]]
        next_cursor = make_cursor(offset + limit, self.gateway.registry.version, request) if more else None
        return {"ok": True, "category_path": segments, "results": results, "next_cursor": next_cursor}

    @recorded
    def search_nodes(self, query: str, limit: Any = None) -> dict[str, Any]:
        problem = _argument_problem("search_nodes", {"query": query, "limit": limit})
        if problem:
            return problem
        hits = self.gateway.search_node_hits(query, limit=_limit(limit))
        return {"ok": True, "results": [{"path": h.path.split("."), "summary": h.summary, "ops": h.ops, "confidence": h.confidence} for h in hits]}

    @recorded
    def expand_tool(self, tool_id: str) -> dict[str, Any]:
        problem = _argument_problem("expand_tool", {"tool_id": tool_id})
        if problem:
            return problem
        record = self.gateway.registry.resolve(tool_id) if isinstance(tool_id, str) else None
        if record is None or not self.gateway.is_visible(record.op):
            hints: list[str] = []
            if isinstance(tool_id, str):
                visible = [r.op for r in self.gateway.registry if self.gateway.is_visible(r.op)]
                hints = self.gateway.registry.closest(tool_id, visible) or [h.op for h in self.gateway.search_hits(tool_id, limit=3)]
            action = f"expand_tool(tool_id={hints[0]!r})" if hints else "search_nodes(query=...)"
            return _error("TOOL_NOT_FOUND", f"There is no tool {quoted(tool_id)}.", hints, action)
        help_payload = self.gateway.help(record.op)
        expanded = {
            "ok": True,
            "tool_id": record.op,
            "path": record.op.split(".")[:-1],
            "summary": record.summary,
            "kind": record.kind,
            "args_schema": record.parameters,
            "usage": help_payload.get("usage"),
        }
        if record.result_schema:
            expanded["result_schema"] = record.result_schema
        if record.examples:
            expanded["examples"] = [dict(e) for e in record.examples[:2]]
        if record.policy:
            expanded["policy"] = record.policy
        return expanded

    @recorded
    def call_tool(self, tool_id: str, arguments: Any = None, *, dry_run: bool = False, idempotency_key: str | None = None) -> dict[str, Any]:
        envelope = self.gateway.exec(tool_id, arguments, idempotency_key=idempotency_key, dry_run=dry_run, session=self.session)
        error = envelope.get("error") or {}
        if error.get("code") == "PERMISSION_DENIED":
            envelope["error"]["protocol"] = {
                "code": "NOT_AUTHORIZED",
                "hints": ["dry_run=true previews the change without writing", "a person can allow writes or confirm the call"],
                "next_action": f"call_tool(tool_id={tool_id!r}, arguments=..., dry_run=true)",
            }
        elif error.get("code") == "NOT_FOUND" and error.get("details", {}).get("unknown_op"):
            suggestions = error["details"]["suggestions"]
            envelope["error"]["protocol"] = {
                "code": "TOOL_NOT_FOUND",
                "hints": suggestions,
                "next_action": f"expand_tool(tool_id={suggestions[0]!r})" if suggestions else "search_nodes(query=...)",
            }
        return envelope


_PATH = {"anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}, {"type": "null"}]}
_LIMIT = {"type": ["integer", "null"], "minimum": 1, "maximum": MAX_LIMIT}
_CURSOR = {"type": ["string", "null"]}
# The arguments of each protocol operation, checked before the call so that bad types get a clear error.
PROTOCOL_SCHEMAS: dict[str, dict[str, Any]] = {
    "list": {"type": "object", "properties": {"path": _PATH, "tags": {"type": ["array", "null"], "items": {"type": "string"}}, "query": {"type": ["string", "null"]}, "limit": _LIMIT, "cursor": _CURSOR}},
    "search_tool_by_category": {"type": "object", "required": ["query"], "properties": {"query": {"type": "string"}, "category_path": _PATH, "limit": _LIMIT, "cursor": _CURSOR}},
    "search_nodes": {"type": "object", "required": ["query"], "properties": {"query": {"type": "string"}, "limit": _LIMIT}},
    "expand_tool": {"type": "object", "required": ["tool_id"], "properties": {"tool_id": {"type": "string"}}},
    "call_tool": {"type": "object", "required": ["tool_id"], "properties": {"tool_id": {"type": "string"}, "arguments": {"type": ["object", "null"]}, "dry_run": {"type": "boolean"}, "idempotency_key": {"type": ["string", "null"]}}},
}
