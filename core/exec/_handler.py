"""What a handler is and what it receives."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .._record import field, record
from ..registry._record import OpRecord
from ..settings import GatewaySettings
from ._session import Session


@record
class HandlerContext:
    """Everything a handler may use. ``tx`` is the store transaction the call runs in
    (a write transaction for writes, read-only otherwise; ``None`` for handlers
    with effects outside the store)."""

    op: str
    record: OpRecord
    tx: Any
    session: Session
    settings: GatewaySettings
    dry_run: bool = False
    warnings: list[str] = field(default_factory=list)
    named_ids: list[str] | dict[str, None] | None = None

    def warn(self, message: str) -> None:
        self.warnings.append(message)

    def names(self, ids: list[str]) -> None:
        """Say which ids the result names, in document order, so that ``meta.entities`` need not walk it.

        Only for a result whose every ``id``, ``*_id`` and ``*Id`` field is
        in ``ids`` in that order (a page of summaries): ``entities_touched``
        must find exactly these. tests/exec/test_named_entities.py holds
        every such handler to it.
        """
        self.named_ids = ids

    def names_found(self, found: dict[str, None]) -> None:
        """:meth:`names` of the ids :func:`~opgate.core.exec._entity_ids.add_row_ids` found: distinct and none blank
        already, so ``meta.entities`` takes them as they are (a get's answer, without checking them again)."""
        self.named_ids = found


HandlerFn = Callable[[HandlerContext, dict[str, Any]], Any]


@record(frozen=True)
class Handler:
    """A handler function and how the dispatcher must run it.

    ``external`` handlers reach outside the store (the network): they run with
    no transaction and refuse dry-run rather than risk a real effect.

    ``reads_before_lock`` says that every read the handler makes before its
    first write only informs the caller (a warning, or an early error that the
    store's write method checks again under the lock), so a plain run may make
    those reads before taking the store's write lock, keeping the lock short.
    A dry-run, a call checking a state digest and a call with an idempotency
    key still hold the lock throughout.
    """

    fn: HandlerFn
    external: bool = False
    reads_before_lock: bool = False
