"""What each bearer-token role may do: read, write, answer confirmations."""
from __future__ import annotations

from .._record import record

ROLES = ("reader", "writer", "approver")
"""Weakest first: each role may do what the ones before it may."""


@record(frozen=True)
class Caller:
    """Who is calling, and what their role lets them do.

    ``name`` is the caller's identity in the call log and the scope of its
    idempotency keys; ``session`` (a :class:`~opgate.core.exec.Session`, or
    ``None`` for the gateway's own) holds the caller's conversation state.
    """

    name: str
    role: str
    session: object | None = None

    @property
    def may_write(self) -> bool:
        return self.role in ("writer", "approver")

    @property
    def may_confirm(self) -> bool:
        return self.role == "approver"

    def write_refusal(self) -> str:
        return f"{self.name}'s token has the role {self.role}, which may only read; nothing was written. Dry-run the call to see its diff, or use a writer token."

    def confirm_refusal(self) -> str:
        return f"{self.name}'s token has the role {self.role}, which may write but not answer confirmations; nothing was written. An approver token can run this op."
