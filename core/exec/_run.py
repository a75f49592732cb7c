"""Running a prepared call inside the right transaction.

Reads run in a read transaction; writes in a write transaction that a dry-run
rolls back (the real handler runs either way). Handlers with effects outside
the store run with no transaction and refuse dry-run. The latency budget
warns; the hard timeout interrupts the database work and fails the call.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from ..settings import GatewaySettings
from ._errors import ConflictError, InternalError, InvalidArguments, OpError
from ._handler import Handler, HandlerContext
from ._idempotency import fingerprint, stored_response
from ._prepare import Call
from ._session import Session


# About one keyed write in this many also sweeps expired keys, so the table stays small.
EXPIRY_SWEEP_EVERY = 64


@dataclass
class Outcome:
    """What running a call produced, before it becomes an envelope."""

    result: Any
    meta: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    replayed: bool = False


class _Deadline:
    """Interrupts the transaction's database work when the hard timeout passes."""

    def __init__(self, seconds: float, tx: Any):
        self.expired = False
        interrupt = getattr(tx, "interrupt", None)
        self._timer = threading.Timer(seconds, self._fire, args=(interrupt,)) if interrupt else None

    def _fire(self, interrupt) -> None:
        self.expired = True
        interrupt()

    def __enter__(self) -> _Deadline:
        if self._timer:
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, *exc: object) -> None:
        if self._timer:
            self._timer.cancel()


class CallRunner:
    def __init__(self, store_provider, handlers: dict[str, Handler], settings: GatewaySettings):
        self._store = store_provider
        self._handlers = handlers
        self._settings = settings

    def run(self, call: Call, session: Session) -> Outcome:
        handler = self._handlers.get(call.op)
        if handler is None:
            raise InternalError(f"{call.op} has no handler in this gateway, so it cannot run here; its help and schema are still available")
        if handler.external:
            return self._run_external(call, handler, session)
        if call.record.kind == "read":
            return self._with_retries(call, lambda: self._run_read(call, handler, session))
        return self._run_write(call, handler, session)

    def replay(self, call: Call, session: Session) -> Outcome | None:
        """The stored answer for this call's idempotency key, if there is one (CONFLICT if the key was used otherwise).

        Looked up before confirmation, so a repeat is never asked again; the
        write path checks once more under the write lock.
        """
        if not call.idempotency_key or call.record.kind != "write":
            return None
        handler = self._handlers.get(call.op)
        if handler is None or handler.external:
            return None
        with self._store().read() as tx:
            stored = stored_response(tx, session.caller, call.idempotency_key, fingerprint(call.op, call.args))
        if stored is None:
            return None
        meta = dict(stored.get("meta") or {})
        if call.dry_run:
            meta["dry_run"] = True
        return Outcome(stored.get("result"), meta, replayed=True)

    def _check_digest(self, call: Call, digest: str) -> None:
        if call.expected_digest and call.expected_digest != digest:
            raise ConflictError(
                "the state this call reads changed since its dry-run; dry-run again and review the new diff",
                expected_state_digest=call.expected_digest,
                state_digest=digest,
            )

    def _context(self, call: Call, tx: Any, session: Session) -> HandlerContext:
        return HandlerContext(call.op, call.record, tx, session, self._settings, call.dry_run)

    def _call_handler(self, handler: Handler, ctx: HandlerContext, args: dict[str, Any]) -> Any:
        with _Deadline(self._settings.hard_timeout_s, ctx.tx) as deadline:
            try:
                return handler.fn(ctx, args)
            except Exception:
                if deadline.expired:
                    raise OpError(f"{ctx.op} did not finish within {self._settings.hard_timeout_s:g} s and was stopped; nothing was written", retryable=True) from None
                raise

    def _run_external(self, call: Call, handler: Handler, session: Session) -> Outcome:
        if call.dry_run:
            raise InvalidArguments(
                f"{call.op} reaches outside the workspace, so it cannot be dry-run without risking a real effect; call it without dry_run",
                field_errors=[{"field": "dry_run", "path": "/dry_run", "code": "not_supported", "message": "this op cannot be dry-run"}],
            )
        ctx = self._context(call, None, session)
        result = handler.fn(ctx, call.args)
        return Outcome(result, warnings=ctx.warnings)

    def _run_read(self, call: Call, handler: Handler, session: Session) -> Outcome:
        with self._store().read() as tx:
            ctx = self._context(call, tx, session)
            result = self._call_handler(handler, ctx, call.args)
            digest = tx.state_digest()
            self._check_digest(call, digest)
            meta = {"dry_run": True, "state_digest": digest} if call.dry_run else {}
        return Outcome(result, meta, ctx.warnings)

    def _with_retries(self, call: Call, attempt) -> Outcome:
        retries = self._settings.read_retries if call.record.metadata.idempotent else 0
        for n in range(retries + 1):
            try:
                return attempt()
            except OpError as exc:
                if not exc.retryable or n == retries:
                    raise
            except Exception as exc:
                if not getattr(exc, "retryable", False) or n == retries:
                    raise
            time.sleep(self._settings.retry_backoff_s * (2**n))
        raise AssertionError("unreachable")

    def _run_write(self, call: Call, handler: Handler, session: Session) -> Outcome:
        key = call.idempotency_key
        print_ = fingerprint(call.op, call.args) if key else ""
        with self._store().write(dry_run=call.dry_run) as tx:
            if key:
                # Checked again under the write lock: a duplicate may have committed since replay().
                stored = stored_response(tx, session.caller, key, print_)
                if stored is not None:
                    tx.rollback()
                    return Outcome(stored.get("result"), dict(stored.get("meta") or {}), replayed=True)
            ctx = self._context(call, tx, session)
            result = self._call_handler(handler, ctx, call.args)
            digest = tx.state_digest()
            self._check_digest(call, digest)
            meta: dict[str, Any] = {"diff": tx.changes.to_dict(), "state_digest": digest}
            if call.dry_run:
                meta["dry_run"] = True
            if key and not call.dry_run:
                if secrets.randbelow(EXPIRY_SWEEP_EVERY) == 0:
                    tx.delete_expired_idempotency_keys()
                tx.put_idempotency_key(
                    session.caller, key, fingerprint=print_, status="completed",
                    response={"result": result, "meta": {"diff": meta["diff"]}}, ttl_seconds=self._settings.idempotency_ttl_s,
                )
        return Outcome(result, meta, ctx.warnings)
