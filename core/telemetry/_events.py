"""What the gateway reports about each call it answers: one :class:`CallEvent`.

Every entry point makes one: help, search, exec, batch, the hybrid lane
(``lane`` when a typed lane is offered for a turn, ``list_tools``,
``run_tool``) and the discovery protocol's five operations. The same event
goes to the call log (the audit log in the workspace database) and to every
listener registered with :meth:`Gateway.add_listener`.
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Any, Mapping

from .._record import field, record

# What a row of the log is. Discovery kinds find or describe ops; call kinds run one.
DISCOVERY_KINDS = ("help", "search", "list_tools", "list", "search_tool_by_category", "search_nodes", "expand_tool")
CALL_KINDS = ("exec", "run_tool", "call_tool")
# "lane": a hybrid typed lane offered for a turn; "unknown_tool": a tool name no mode offers.
EVENT_KINDS = (*DISCOVERY_KINDS, *CALL_KINDS, "batch", "lane", "unknown_tool")
# How the host reached the call: the four gateway tools, a typed op tool from the
# hybrid lane, the generic run_tool/list_tools pair, or the discovery protocol.
LANES = ("gateway", "typed", "generic", "protocol")

_EMPTY: Mapping[str, Any] = MappingProxyType({})


@record(frozen=True)
class CallEvent:
    """One answered call, as listeners and the call log see it.

    ``trace_id`` is this call's own id (the one in an exec envelope's
    ``meta``). ``chain_id`` is the trace id of the discovery step that led to
    it (the search whose results named the op, or the first help or expand
    on it); ``None`` when nothing did. ``parent_id`` is the call this one ran
    inside (the ``run_tool``, ``call_tool`` or ``batch`` that made an exec).
    ``actor`` says who called ("local" until the server knows its callers).
    ``started_at`` is in seconds since the epoch; ``duration_ms`` is measured
    on the monotonic clock. ``detail`` holds a few bounded facts that depend
    on the kind: the query and the ops a search surfaced, the sizes of a
    lane, whether an exec's op was in the lane offered this turn.
    """

    kind: str
    subject: str
    ok: bool
    code: str | None
    duration_ms: float
    trace_id: str
    session_id: str
    started_at: float
    actor: str = "local"
    chain_id: str | None = None
    parent_id: str | None = None
    lane: str | None = None
    tool_name: str = ""
    dry_run: bool = False
    detail: Mapping[str, Any] = field(default_factory=lambda: _EMPTY)

    @property
    def op(self) -> str | None:
        """The op this call ran or described, when it is about one op."""
        return self.subject if self.kind in ("exec", "run_tool", "call_tool", "expand_tool") or (self.kind == "help" and self.detail.get("type") == "op") else None


__all__ = ["CALL_KINDS", "CallEvent", "DISCOVERY_KINDS", "EVENT_KINDS", "LANES"]
