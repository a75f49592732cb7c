"""What one caller's session knows: who it is, the ids in play, and what it just asked."""

from __future__ import annotations

import os
import threading
from collections import deque
from typing import Any

from .._record import field, record
from ..telemetry._trail import DiscoveryTrail

# Arguments a session may fill in when a call leaves them out.
REMEMBERED_IDS = ("project_id",)
# Ops a session remembers having inspected (help on the op, expand_tool, a schema listing), newest last.
INSPECTED_LIMIT = 32


@record
class Session:
    """Per-caller state shared by every call of one conversation or front end.

    ``known`` holds ids the session has seen in use (the current project): a
    call that leaves out a required argument of that name gets it filled in,
    with a warning saying so. ``caller`` scopes idempotency keys and names the
    session in the call log. ``recent_calls`` feeds the loop guard;
    ``inspected`` lists the ops whose schema the caller has read, which the
    hybrid mode promotes into its typed lane. A host with several clients
    (``opgate serve``) gives each client its own Session.
    """

    caller: str = "local"
    known: dict[str, str] = field(default_factory=dict)
    recent_calls: deque = field(default_factory=lambda: deque(maxlen=20))
    inspected: list[str] = field(default_factory=list)
    # Telemetry: the id every call of this session is logged under, and which discovery step led to which call.
    id: str = field(default_factory=lambda: "se_" + os.urandom(8).hex())
    trail: DiscoveryTrail = field(default_factory=DiscoveryTrail, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def remember(self, **ids: str) -> None:
        with self._lock:
            self.known.update({k: v for k, v in ids.items() if isinstance(v, str) and v})

    def fill_missing(self, required: tuple[str, ...], args: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """``args`` with remembered ids filled in where required ones are missing, and a warning per fill."""
        filled = dict(args)
        warnings = []
        for name in required:
            if name not in filled and name in self.known:
                filled[name] = self.known[name]
                warnings.append(f"{name} was missing; used the session's current {name} {self.known[name]}")
        return filled, warnings

    def learn_from(self, args: dict[str, Any], result: Any) -> None:
        """Keep the project a successful call worked in as the current one."""
        for name in REMEMBERED_IDS:
            if isinstance(args.get(name), str):
                self.remember(**{name: args[name]})
        if isinstance(result, dict) and isinstance(result.get("project"), dict) and isinstance(result["project"].get("id"), str):
            self.remember(project_id=result["project"]["id"])

    def note_call(self, signature: str) -> int:
        """Record a call; return how many times in a row this exact call has now been made."""
        with self._lock:
            self.recent_calls.append(signature)
            count = 0
            for previous in reversed(self.recent_calls):
                if previous != signature:
                    break
                count += 1
            return count

    def note_inspected(self, op: str) -> None:
        """Remember that the caller read ``op``'s schema (the oldest are forgotten past a bound)."""
        with self._lock:
            if op in self.inspected:
                self.inspected.remove(op)
            self.inspected.append(op)
            del self.inspected[:-INSPECTED_LIMIT]
