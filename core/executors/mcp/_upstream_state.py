"""What the hub knows about one configured server: its connection, its last listing and the calls' latencies."""

from __future__ import annotations

import asyncio
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from ._config import UpstreamConfig
from ._pins import PinReview

_LATENCIES_KEPT = 200


@dataclass
class Listing:
    """One upstream's tools as last listed, and what the pins say about them."""

    tools: list[dict[str, Any]]
    review: PinReview
    at_start: int  # the connection's start count when listed: a restart means listing again
    refused: list[tuple[str, str]] = field(default_factory=list)  # (name, why) of tools that are not MCP tools


class Upstream:
    """What the hub knows about one configured server."""

    def __init__(self, config: UpstreamConfig):
        self.config = config
        self.connection: Any = None  # a _connection.Connection, made on first use (it imports the SDK)
        self.listing: Listing | None = None
        self.list_error: str | None = None
        self.latencies_ms: deque[float] = deque(maxlen=_LATENCIES_KEPT)
        self.listing_task: asyncio.Future[Any] | None = None
        # Relistings a server asks for (tools/list_changed) run one at a time, with at most one more waiting.
        self.relisting = asyncio.Lock()
        self.relist_waiting = False
