"""Each MCP client's own state, and the limits that keep one client from holding up the others.

A client is one session (see ``_session_keys``). Its state: the core
``Session`` (remembered ids, current project, loop guard, inspected ops,
idempotency scope), a router per approver (one that can ask the person, one
that refuses), the typed lane it last saw, and its share of the server's
capacity.

Capacity: every tool call runs in a worker thread (exec blocks on SQLite,
and a confirmation blocks until the person answers). A client runs at most
``CALLS_PER_CLIENT`` calls at once, all clients together ``MAX_CALLS``.
Elicitations that wait (handshake clients) are bounded per client and in
all, well below ``MAX_CALLS``, so waiting calls can never take the capacity
that other clients' calls need; a 2026-07-28 confirmation holds no thread
(``_input_required``).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

import anyio

from opgate.core.exec import PermissionDenied, Session, SessionTable
from opgate.core.modes import ToolRouter

from ._session_keys import SessionKey

log = logging.getLogger(__name__)

CALLS_PER_CLIENT = 4
MAX_CALLS = 64
WAITING_PER_CLIENT = 2
MAX_WAITING = 32
"""Confirmations waiting for a person at once, in all; each holds a worker thread, so it stays below MAX_CALLS."""


@dataclass
class Client:
    """One client session's state."""

    key: SessionKey
    session: Session
    asking: ToolRouter
    refusing: ToolRouter
    # Taken without a turn of the event loop when free: the call then goes straight to its thread.
    calls: anyio.Semaphore = field(default_factory=lambda: anyio.Semaphore(CALLS_PER_CLIENT, fast_acquire=True))
    waiting: int = 0
    lane: tuple[str, ...] = ()
    synced: dict[str, Any] | None = None
    """The shared state last read from or written to the store (named sessions only, see ``_shared_sessions``)."""


class ConfirmationBudget:
    """Counts the confirmations waiting for a person, per client and in all; used on the event loop only."""

    def __init__(self, per_client: int = WAITING_PER_CLIENT, total: int = MAX_WAITING):
        self.per_client = per_client
        self.total = total
        self.waiting = 0

    def take(self, client: Client | None, op: str) -> None:
        """Reserve a place to wait, or refuse the op with the reason (the approver's refusal)."""
        if client is not None and client.waiting >= self.per_client:
            raise PermissionDenied(
                f"{op} needs a person's confirmation, and this session already has {self.per_client} waiting for an answer; "
                "nothing was written. Answer or cancel those first, then call again.",
                requires_confirmation=True,
            )
        if self.waiting >= self.total:
            raise PermissionDenied(
                f"{op} needs a person's confirmation, and the server already has {self.total} waiting for an answer; "
                "nothing was written. Call again later.",
                requires_confirmation=True,
            )
        self.waiting += 1
        if client is not None:
            client.waiting += 1

    def give_back(self, client: Client | None) -> None:
        self.waiting -= 1
        if client is not None:
            client.waiting -= 1


class Clients:
    """Every client's state by session key, bounded (see ``SessionTable``); requests nothing keeps get a fresh one."""

    def __init__(self, asking_gateway: Any, refusing_gateway: Any, mode: str, *, max_clients: int, idle_seconds: float):
        self._asking_gateway = asking_gateway
        self._refusing_gateway = refusing_gateway
        self.mode = mode
        self._table: SessionTable[SessionKey, Client] = SessionTable(self._make, max_sessions=max_clients, idle_seconds=idle_seconds)

    def get(self, key: SessionKey) -> Client:
        return self._table.get(key) if key.kept else self._make(key)

    def __len__(self) -> int:
        return len(self._table)

    @property
    def evicted(self) -> int:
        return self._table.evicted

    def _make(self, key: SessionKey) -> Client:
        session = Session(caller=key.caller)
        return Client(
            key, session,
            ToolRouter(self._asking_gateway, mode=self.mode, session=session),
            ToolRouter(self._refusing_gateway, mode=self.mode, session=session),
        )
