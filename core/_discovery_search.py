"""Provisional op search (replaced by the search index): word overlap over op names and summaries."""

from __future__ import annotations

import re
from typing import Any

_WORD = re.compile(r"[a-z0-9]+")


def search_ops(gateway: Any, query: str, *, path: str | None, kind: str | None, limit: int, cursor: str | None) -> dict[str, Any]:
    words = set(_WORD.findall((query or "").lower()))
    scored = []
    for record in gateway.registry:
        if not gateway.is_visible(record.op) or (path and not record.op.startswith(path)) or (kind and record.kind != kind):
            continue
        text = set(_WORD.findall(f"{record.op} {record.summary} {record.description}".lower()))
        overlap = len(words & text)
        if overlap:
            scored.append((overlap / max(len(words), 1), record))
    scored.sort(key=lambda pair: (-pair[0], pair[1].op))
    results = [{"op": r.op, "tool_name": r.tool_name, "summary": r.summary, "kind": r.kind, "confidence": round(min(score, 1.0), 3)} for score, r in scored[:limit]]
    return {"ok": True, "query": query, "results": results, "next_cursor": None}
