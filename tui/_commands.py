"""Command palette: "Go to op …" for every visible op (the action commands come from the key lists)."""

from __future__ import annotations

from functools import partial

from textual.command import DiscoveryHit, Hit, Hits, Provider


class OpCommands(Provider):
    """Yields ``Go to op <path>`` for each op the context scope shows."""

    def _ops(self) -> list[tuple[str, str]]:
        return [(r.op, r.summary) for r in self.app.gateway.help_tree.root.ops()]  # type: ignore[attr-defined]

    async def discover(self) -> Hits:
        for op, summary in self._ops():
            yield DiscoveryHit(f"Go to op {op}", partial(self.app.go_to_op, op), help=summary)  # type: ignore[attr-defined]

    async def search(self, query: str) -> Hits:
        matcher = self.matcher(query)
        for op, summary in self._ops():
            text = f"Go to op {op}"
            score = matcher.match(text)
            if score > 0:
                yield Hit(score, matcher.highlight(text), partial(self.app.go_to_op, op), help=summary)  # type: ignore[attr-defined]
