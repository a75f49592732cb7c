"""The gateway's search: the index over its registry, ranked answers, and the discovery protocol."""

from __future__ import annotations

from typing import Any

from .exec._session import Session
from .telemetry._surfaced import search_surfaced


class GatewaySearch:
    """search, its index and discovery (a part of :class:`~opgate.core.Gateway`)."""

    def search(self, query: str, *, path: str | None = None, kind: str | None = None, limit: int = 10, cursor: str | None = None) -> dict[str, Any]:
        """Natural-language search over the visible ops: ranked pointers with a confidence in [0, 1].

        Answers ``{"ok": true, "query", "results": [{op, tool_name, summary,
        kind, confidence}], "next_cursor"}``; a path that does not exist, or
        one with no match, is an error with hints and the next action.
        """
        from .discovery._search_answer import search_answer

        with self.telemetry.step("search", self.current_session, query) as step:
            answer = search_answer(self, query, path=path, kind=kind, limit=limit, cursor=cursor)
            step.answered(answer, surfaced=search_surfaced(answer), new_chain=True, path=path if isinstance(path, str) else None, results=len(answer.get("results") or []))
        return answer

    def search_hits(self, query: str, *, path: str | None = None, kind: str | None = None, limit: int = 10, offset: int = 0, min_confidence: float = 0.0) -> list:
        """The ranked hits (``SearchHit``) for the visible ops, down to ``min_confidence``."""
        self.refresh_upstreams()
        hits = self.search_index.search(query, limit=limit, offset=offset, path=path, kind=kind, visible=self._visible)
        return [hit for hit in hits if hit.confidence >= min_confidence]

    def search_node_hits(self, query: str, *, limit: int = 10) -> list:
        """Groups (``NodeHit``) whose visible ops match ``query`` best."""
        self.refresh_upstreams()
        return self.search_index.search_nodes(query, limit=limit, visible=self._visible)

    @property
    def search_index(self):
        """The search index over the whole registry, built on first use (visibility is applied per query)."""
        index = self._search_index
        if index is None:
            with self._store_lock:
                index = self._search_index
                if index is None:
                    from .search import SearchIndex

                    registry = self.registry
                    cached = self._index_cache if registry is self._base_registry and self.search_ranker == "default" else None
                    index = cached[0].load_index(cached[1], registry) if cached else None
                    if index is None:
                        index = SearchIndex.build(registry, semantic=self.search_ranker == "semantic", group_summaries=registry.group_summaries)
                        if cached:
                            cached[0].store_index(cached[1], index)
                    self._search_index = index
        return index

    @property
    def discovery(self):
        """The discovery protocol (list, search_tool_by_category, search_nodes, expand_tool, call_tool)."""
        return self.discovery_for(None)

    def discovery_for(self, session: Session | None):
        """The discovery protocol for one caller: its ``call_tool`` runs in ``session``."""
        from .discovery import Discovery

        return Discovery(self, session=session)
