"""Which discovery step led to which call, within one session.

A search starts a chain: every op it surfaced points back to it. A help,
an expand or a listing of something a chain surfaced joins that chain (and
what it shows joins too); one about something no chain surfaced starts its
own. An exec of an op that a chain surfaced carries that chain's id, which
is how ``search "move doc" -> help onto.document.tree.move -> exec`` is read
back from the log.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

TRAIL_LIMIT = 512
"""Subjects (ops and group paths) one session remembers; the oldest are forgotten first."""


class DiscoveryTrail:
    """Per-session memory: the chain each surfaced op or group belongs to, and the lane offered this turn."""

    def __init__(self) -> None:
        self._chains: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()
        self.lane_ops: frozenset[str] | None = None  # None until a hybrid lane is offered

    def chain_of(self, subject: str | None) -> str | None:
        """The chain that surfaced ``subject`` (an op, or a group and then its nearest surfaced parent)."""
        if not subject or not self._chains:  # nothing surfaced yet (every call of a session that never searched): no lock to take
            return None
        with self._lock:
            return self._chains.get(subject)

    def surface(self, chain_id: str, subjects: Iterable[str]) -> None:
        """Remember that ``chain_id`` showed these ops or groups (newest chain wins)."""
        with self._lock:
            for subject in subjects:
                if not subject:
                    continue
                self._chains.pop(subject, None)
                self._chains[subject] = chain_id
            while len(self._chains) > TRAIL_LIMIT:
                self._chains.popitem(last=False)

    def offer_lane(self, ops: Iterable[str]) -> None:
        self.lane_ops = frozenset(ops)

    def in_lane(self, op: str) -> bool | None:
        """Whether ``op`` was in the typed lane offered last; ``None`` when no lane was offered."""
        lane = self.lane_ops
        return None if lane is None else op in lane
