"""The answer to the ``search`` gateway tool: hits with kinds, paging, and recoverable errors."""

from __future__ import annotations

from typing import Any

from .._cursor import BadCursor, make_cursor, read_cursor
from ..echo_text import quoted, shortened
from ._protocol import MAX_LIMIT, _error

# The answer repeats the request so a reader can tell answers apart; a pasted megabyte is not repeated whole.
QUERY_ECHO_CHARS = 1_000


def search_answer(gateway: Any, query: Any, *, path: str | None, kind: str | None, limit: Any, cursor: str | None) -> dict[str, Any]:
    if not isinstance(query, str) or not query.strip():
        return _error("VALIDATION_ERROR", "query must say, in words, what you want to do", [], "search(query='move a document into a folder')")
    if kind not in (None, "read", "write"):
        return _error("VALIDATION_ERROR", "kind is 'read' or 'write'", ["read", "write"], f"search(query={quoted(query)})")
    if path is not None and not isinstance(path, str):
        return _error("VALIDATION_ERROR", "path is a group such as 'onto.task'", [], f"search(query={quoted(query)})")
    path = (path or "").strip(".") or None
    if path and gateway.help_tree.node(path) is None:
        hints = gateway.help_closest_paths(path)
        return _error("UNKNOWN_PATH", f"There is no group {quoted(path)}.", hints, f"search(query={quoted(query)}, path={hints[0]!r})" if hints else f"search(query={quoted(query)})")
    # The tool's schema says 1 to 50; a limit outside is refused, not quietly clamped (5.0 is 5, as in JSON Schema).
    whole = isinstance(limit, int) or (isinstance(limit, float) and limit.is_integer())
    if isinstance(limit, bool) or not whole or not 1 <= limit <= MAX_LIMIT:
        return _error("VALIDATION_ERROR", f"limit is a whole number from 1 to {MAX_LIMIT}, not {quoted(limit)}; page further with next_cursor", [], f"search(query={quoted(query)}, limit=10)")
    limit = int(limit)
    request = {"q": query, "p": path, "k": kind}
    try:
        offset = read_cursor(cursor, gateway.registry.version, request)
    except BadCursor as exc:
        return _error("VALIDATION_ERROR", str(exc), [], f"search(query={quoted(query)})")
    hits = gateway.search_hits(query, path=path, kind=kind, limit=limit + 1, offset=offset)
    if not hits and path and offset == 0:
        elsewhere = gateway.search_node_hits(query, limit=3)
        hints = [h.path for h in elsewhere]
        action = f"search(query={quoted(query)}, path={hints[0]!r})" if hints else f"search(query={quoted(query)})"
        return _error("NO_MATCH_IN_CATEGORY", f"No op under {quoted(path)} matches {quoted(query)}.", hints, action)
    results = []
    for hit in hits[:limit]:
        record = gateway.registry.get(hit.op)
        result = {**hit.to_dict(), "kind": record.kind}
        if record.destructive:
            # "write" alone does not tell an agent that this one removes things.
            result["destructive"] = True
        if not record.runnable:
            result["runnable"] = False
        results.append(result)
    answer: dict[str, Any] = {"ok": True, "query": shortened(query, QUERY_ECHO_CHARS), "results": results, "next_cursor": make_cursor(offset + limit, gateway.registry.version, request) if len(hits) > limit else None}
    if not results and offset == 0:
        answer["hint"] = "No op matches those words; try other words, or help() to browse the groups."
    return answer
