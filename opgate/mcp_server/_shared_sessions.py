"""Named sessions that every server process on a workspace sees alike.

A 2026-07-28 client that names its session (``Opgate-Session``) may have
each request sent to another server process. What the session remembers
that changes what a call does (the current project and other remembered
ids; the ops it inspected, which make up its typed lane in hybrid) is kept
in the store (``client_sessions``, migration 0008) under a digest of the
session key: read before each call (one indexed read), written after it
only when it changed. The loop guard stays in each process: it counts a
call repeated in a row, and a model repeating itself repeats itself in
every process it reaches, so each one still notices.

Handshake sessions (``Mcp-Session-Id``) live in the process that opened
them (the SDK keeps the transport's session in memory), so a load balancer
keeps them on one process and they need none of this.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

from opgate.core.exec import Session
from opgate.core.store import StoreError

from ._clients import Client

log = logging.getLogger(__name__)


def _stamp(moment: datetime) -> str:
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def snapshot(session: Session) -> dict[str, Any]:
    """What of a session other processes must see."""
    with session._lock:
        return {"known": dict(session.known), "inspected": list(session.inspected)}


def restore(session: Session, state: dict[str, Any]) -> None:
    with session._lock:
        session.known = {k: v for k, v in (state.get("known") or {}).items() if isinstance(k, str) and isinstance(v, str)}
        session.inspected = [op for op in state.get("inspected") or [] if isinstance(op, str)]


class SharedSessions:
    """Reads a named session's state from the store before a call and writes it back after, when it changed."""

    def __init__(self, store: Callable[[], Any], idle_seconds: float):
        self._store = store
        self._idle = idle_seconds

    @staticmethod
    def shares(client: Client) -> bool:
        return client.key.named

    @staticmethod
    def _key(client: Client) -> str:
        return hashlib.sha256(client.key.text.encode()).hexdigest()

    def pull(self, client: Client) -> None:
        """Bring the session up to what any process last wrote (runs in a worker thread)."""
        if not self.shares(client):
            return
        fresh_since = _stamp(datetime.now(UTC) - timedelta(seconds=self._idle))
        try:
            with self._store().read() as tx:
                state = tx.client_session_state(self._key(client), fresh_since)
        except StoreError as exc:  # the call goes on with what this process knows
            log.warning("could not read a session's shared state: %s", exc)
            return
        if state is not None and state != client.synced:
            restore(client.session, state)
            client.synced = state

    def push(self, client: Client) -> None:
        """Write the session's state if this call changed it."""
        if not self.shares(client):
            return
        state = snapshot(client.session)
        if state == client.synced:
            return
        now = datetime.now(UTC)
        try:
            with self._store().write() as tx:
                tx.put_client_session_state(self._key(client), state, _stamp(now), forget_before=_stamp(now - timedelta(seconds=self._idle)))
        except StoreError as exc:
            log.warning("could not keep a session's shared state: %s", exc)
            return
        client.synced = state

    def around(self, client: Client, call: Callable[..., Any], *args: Any) -> Any:
        self.pull(client)
        try:
            return call(*args)
        finally:
            self.push(client)


__all__ = ["SharedSessions", "restore", "snapshot"]
