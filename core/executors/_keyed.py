"""Idempotency keys for executors whose effects happen outside the store.

The store executor claims a key in the same transaction as its write. An
upstream (a handler, an MCP server, an HTTP API) writes elsewhere, so the
key is claimed in the workspace before the call is sent, and its answer is
stored after it returns: a repeat replays that answer without a second
upstream call, and a repeat that arrives while the first is still running
gets CONFLICT (retryable). If the call fails, the claim is released so that
the retry really runs; an upstream that timed out may have acted anyway, and
only its own idempotency (the ``Idempotency-Key`` header, for HTTP APIs)
can close that gap.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..exec._errors import ConflictError
from ..exec._idempotency import fingerprint
from ._base import Outcome

if TYPE_CHECKING:
    from ..exec._prepare import Call
    from ..exec._session import Session

PENDING = "pending"
COMPLETED = "completed"


def _stored(tx: Any, session: Session, call: Call, print_: str) -> Outcome | None:
    record = tx.get_idempotency_key(session.caller, call.idempotency_key)
    if record is None:
        return None
    if record["fingerprint"] != print_:
        raise ConflictError(
            f"idempotency key {call.idempotency_key!r} was already used for a different call; use a new key for new arguments",
            idempotency_key=call.idempotency_key,
        )
    if record["status"] == PENDING:
        raise ConflictError(
            f"a call with idempotency key {call.idempotency_key!r} is still running; retry when it has finished",
            idempotency_key=call.idempotency_key, retryable=True,
        )
    response = record["response"] or {}
    return Outcome(response.get("result"), dict(response.get("meta") or {}), replayed=True)


def replay_keyed(store: Callable[[], Any], call: Call, session: Session) -> Outcome | None:
    """The stored answer for this key (before confirmation, so a repeat is never asked again).

    ``store`` gives the workspace store; it is only opened when there is a key,
    so an upstream call without one never needs the workspace.
    """
    if not call.idempotency_key or call.record.kind != "write":
        return None
    with store().read() as tx:
        return _stored(tx, session, call, fingerprint(call.op, call.args))


def run_keyed(store: Callable[[], Any], call: Call, session: Session, run: Callable[[], Outcome], *, ttl_seconds: int) -> Outcome:
    """Run ``run`` at most once per (caller, key) while its answer is kept (``store`` gives the workspace store)."""
    if not call.idempotency_key or call.dry_run or call.record.kind != "write":
        return run()
    store = store()
    key, print_ = call.idempotency_key, fingerprint(call.op, call.args)
    with store.write() as tx:
        stored = _stored(tx, session, call, print_)
        if stored is not None:
            return stored
        tx.put_idempotency_key(session.caller, key, fingerprint=print_, status=PENDING, ttl_seconds=ttl_seconds)
    try:
        outcome = run()
    except BaseException:
        with store.write() as tx:
            tx.put_idempotency_key(session.caller, key, fingerprint=print_, status=PENDING, ttl_seconds=0)
        raise
    with store.write() as tx:
        tx.put_idempotency_key(
            session.caller, key, fingerprint=print_, status=COMPLETED,
            response={"result": outcome.result, "meta": {k: v for k, v in outcome.meta.items() if k != "dry_run"}},
            ttl_seconds=ttl_seconds,
        )
    return outcome
