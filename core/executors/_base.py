"""The executor seam: what the dispatcher hands an executor, and what it gets back.

The dispatcher validates, authorizes and confirms a call; an executor only
runs it. An executor either returns an :class:`Outcome` or raises an
``OpError`` (or a store error) that the dispatcher maps to an envelope. It
never sees which front end asked.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any, Protocol

from .._record import field, record

if TYPE_CHECKING:  # types only: importing the call's module would load the validator (jsonschema)
    from ..exec._prepare import Call
    from ..exec._session import Session
    from ..settings import GatewaySettings

# What dry-run means for an executor, as ``meta.dry_run_kind`` reports it.
ROLLBACK = "rollback"  # the call really runs in a transaction that is rolled back (meta.diff)
PREVIEW = "preview"  # nothing is sent: meta.preview shows exactly what would be
NATIVE = "native"  # the upstream or handler rehearses the call itself
READ = "read"  # a read its source declares free of effects runs for real: there is nothing to rehearse
DRY_RUN_KINDS = (ROLLBACK, PREVIEW, NATIVE, READ)

MAX_ANSWER_BYTES = 64 * 1024 * 1024
"""The most one upstream answer may hold, HTTP body (after decompression) or MCP message: far past any page a
model can use (its envelope keeps 16,000 characters), and a bound on what one call can make this process hold."""


@record
class Outcome:
    """What running a call produced, before it becomes an envelope."""

    result: Any
    meta: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    replayed: bool = False
    # The ids the result names, in the order a walk of it finds them, when the executor
    # knows them already (a page of summaries: its rows' ids); None: the dispatcher walks the result.
    entities: list[str] | dict[str, None] | None = None


@record
class Invocation:
    """A validated call on its way to an executor, with the time it has left.

    ``deadline`` is on the ``time.monotonic()`` clock. ``ask`` is how an
    upstream may put a question to the person running the call (MCP
    elicitation); ``None`` when nobody can answer.
    """

    call: Call
    session: Session
    settings: GatewaySettings
    deadline: float
    ask: Any = None

    @property
    def remaining_s(self) -> float:
        return max(0.0, self.deadline - time.monotonic())

    @property
    def timeout_s(self) -> float:
        return self.settings.hard_timeout_s


class Executor(Protocol):
    """One way of running ops: the store, a Python handler, an upstream MCP server, an HTTP API."""

    name: str
    # True when the executor stores idempotency keys in the same transaction as
    # its write (the store). Otherwise the dispatcher keeps the key around the call.
    keeps_idempotency: bool

    def dry_run_kind(self, call: Call) -> str:
        """What a dry-run of this call does: one of :data:`DRY_RUN_KINDS`."""
        ...

    def preview(self, call: Call) -> dict[str, Any]:
        """Exactly what a run of this call would send (for ``preview`` dry-runs and confirmations)."""
        ...

    def run(self, invocation: Invocation) -> Outcome:
        """Run the call (a ``native``/``rollback``/``read`` dry-run too); raise ``OpError`` for a failure."""
        ...

    def replay(self, call: Call, session: Session) -> Outcome | None:
        """The stored answer for this call's idempotency key, if the executor keeps keys itself."""
        ...

    def close(self) -> None:
        ...
