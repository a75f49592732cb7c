"""The gateway's registry, and the upstream MCP servers whose listings change it."""

from __future__ import annotations

from typing import Any

from .registry._registry import Registry


class GatewayUpstreams:
    """The registry and its upstreams (a part of :class:`~opgate.core.Gateway`)."""

    @property
    def registry(self) -> Registry:
        """Every op this gateway knows (upstream ones once listed; see :meth:`refresh_upstreams`)."""
        self.refresh_upstreams()
        return self._registry

    @property
    def base_registry(self) -> Registry:
        """The registry the gateway was made with, before upstream ops were added."""
        return self._base_registry

    def _unavailable_upstream(self, namespace: str) -> str | None:
        """That the upstream named ``namespace`` has no ops now, and why; or ``None`` (for help and exec's not-found answers only)."""
        upstreams = self.upstreams
        return upstreams.unavailable(namespace) if upstreams is not None else None

    def _unlisted_upstreams(self) -> list[dict[str, str]]:
        """The upstreams that offer no ops now, with their state and why (for help's root)."""
        upstreams = self.upstreams
        return upstreams.unlisted() if upstreams is not None else []

    def _attach(self, upstreams: Any) -> None:
        from .executors.mcp import McpExecutor

        self.executors.register("mcp", lambda name: McpExecutor(upstreams, name))
        upstreams.attach(lambda: self.store, self._upstreams_changed)

    def refresh_upstreams(self) -> None:
        """List the upstreams that have no listing yet: the first time waiting (bounded), later in the background."""
        upstreams = self.upstreams
        if upstreams is None:
            return
        if self._upstreams_seen is None:
            upstreams.ensure_listed()
            self._upstreams_changed()
        elif len(upstreams) and upstreams.version != self._upstreams_seen:
            self._upstreams_changed()
        else:
            upstreams.ensure_listed(timeout=0)

    def _upstreams_changed(self) -> None:
        """Swap in a registry with the upstreams' current ops: help, search and the dispatcher are rebuilt."""
        from .registry._build import build_registry as build, merge_registries

        with self._swap_lock:
            version = self.upstreams.version
            if version == self._upstreams_seen:
                return
            loads, problems, summaries = self.upstreams.loads()
            extra = build(loads, group_summaries=summaries)
            extra.problems.extend(problems)
            self._registry = merge_registries(self._base_registry, extra)
            self._search_index = None
            self._upstreams_seen = version
            self.set_context(self._requested_context)
