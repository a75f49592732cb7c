"""SQL for the pins of upstream MCP tools (see core/executors/mcp/_pins.py for what they mean).

Like the idempotency keys, pins are bookkeeping: not entities, not part of a
ChangeSet, a state digest or a dump.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ._rows import encode_json
from ._sqlite_base import SQLiteTxCore


class PinReads(SQLiteTxCore):
    def upstream_pins(self, upstream: str) -> dict[str, dict[str, Any]]:
        """The pinned tools of one upstream by tool name: ``{digest, definition, pinned_at}``."""
        rows = self._fetch("SELECT tool, digest, definition, pinned_at FROM upstream_pins WHERE upstream = ?", (upstream,))
        return {tool: {"digest": digest, "definition": json.loads(definition), "pinned_at": pinned_at} for tool, digest, definition, pinned_at in rows}


class PinWrites(PinReads):
    def pin_upstream_tools(self, upstream: str, pins: Mapping[str, tuple[str, Any]]) -> None:
        """Pin (or re-pin) tools: ``{tool: (digest, definition)}``."""
        now = self._clock()
        for tool, (digest, definition) in pins.items():
            self._run(
                "INSERT OR REPLACE INTO upstream_pins (upstream, tool, digest, definition, pinned_at) VALUES (?, ?, ?, ?, ?)",
                (upstream, tool, digest, encode_json(definition), now),
            )

    def unpin_upstream_tools(self, upstream: str, tools: Iterable[str]) -> int:
        return sum(self._run("DELETE FROM upstream_pins WHERE upstream = ? AND tool = ?", (upstream, tool)) for tool in tools)
