"""The store executor: the built-in ops, run against the workspace store.

Its table maps each built-in op to a handler (``opgate.core.handlers``; each
handler receives a :class:`~opgate.core.exec.HandlerContext` and the
validated arguments). Reads run in a read transaction; writes in a write
transaction that a dry-run rolls back, so a dry-run really runs the handler
and reports the diff (``rollback``). Idempotency keys are stored in the same
transaction as the write, so a write and its key commit or vanish together.
Handlers that reach outside the store (the web ops) run with no
transaction and refuse dry-run rather than risk a real effect.

The hard timeout interrupts the database work through the shared watchdog.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from ..exec._errors import ConflictError, InternalError, InvalidArguments, OpError
from ..exec._handler import Handler, HandlerContext
from ..exec._idempotency import fingerprint, stored_response
from ..settings import GatewaySettings
from ..store._errors import NulInText
from ..store._names import diff_names
from ..store._rows import seeded_ids
from ._base import READ, ROLLBACK, Invocation, Outcome
from ._watchdog import CALLBACK, WATCHDOG, has_fired

if TYPE_CHECKING:  # the call's type only: importing it would load the validator (jsonschema)
    from ..exec._prepare import Call
    from ..exec._session import Session

# About one keyed write in this many also sweeps expired keys, so the table stays small.
EXPIRY_SWEEP_EVERY = 64


class StoreExecutor:
    name = "store"
    keeps_idempotency = True

    def __init__(self, store_provider: Callable[[], Any], handlers: dict[str, Handler] | None, settings: GatewaySettings):
        """``handlers`` is the op table; ``None`` means the built-in one, loaded on first use."""
        self._store = store_provider
        self._handlers = handlers
        self._settings = settings
        self._quick: dict[str, Handler] = {}
        self._bind_quick()

    def _bind_quick(self) -> None:
        """The plain dict an op is looked up in first, with no Python call: a dict table itself, or the built-in table's loaded part."""
        handlers = self._handlers
        if type(handlers) is dict:
            self._quick = handlers
        else:
            loaded = getattr(handlers, "loaded", None)
            self._quick = loaded if type(loaded) is dict else {}

    @property
    def handlers(self) -> dict[str, Handler]:
        if self._handlers is None:
            from ..handlers import builtin_handlers

            self._handlers = builtin_handlers()
            self._bind_quick()
        return self._handlers

    def has(self, op: str) -> bool:
        return op in self._quick or op in self.handlers  # the first test answers nearly every call

    def dry_run_kind(self, call: Call) -> str:
        return READ if call.record.kind == "read" else ROLLBACK

    def preview(self, call: Call) -> dict[str, Any]:
        return {"op": call.op, "args": call.args}

    def close(self) -> None:
        pass

    def _handler(self, call: Call) -> Handler:
        handler = self.handlers.get(call.op)
        if handler is None:
            raise InternalError(f"{call.op} has no handler in the workspace store, so it cannot run here; its help and schema are still available")
        return handler

    def run(self, invocation: Invocation) -> Outcome:
        call = invocation.call
        handler = self._quick.get(call.record.op)
        if handler is None:
            handler = self._handler(call)
        if handler.external:
            return self._run_external(invocation, handler)
        if call.record.kind == "read":
            try:  # the first attempt without the retry loop's closure: nearly every read succeeds at once
                return self._run_read(invocation, handler)
            except Exception as exc:
                if not (exc.retryable if isinstance(exc, OpError) else getattr(exc, "retryable", False)):
                    raise
                if not self._retries(call):
                    raise
            time.sleep(self._settings.retry_backoff_s)
            return self._with_retries(call, lambda: self._run_read(invocation, handler), first=1)
        return self._run_write(invocation, handler)

    def _retries(self, call: Call) -> int:
        return self._settings.read_retries if call.record.metadata.idempotent else 0

    def replay(self, call: Call, session: Session) -> Outcome | None:
        """The stored answer for this call's idempotency key, if there is one (CONFLICT if the key was used otherwise).

        Looked up before confirmation, so a repeat is never asked again; the
        write path checks once more under the write lock.
        """
        if not call.idempotency_key or call.record.kind != "write":
            return None
        handler = self.handlers.get(call.op)
        if handler is None or handler.external:
            return None
        with self._store().read() as tx:
            stored = stored_response(tx, session.caller, call.idempotency_key, fingerprint(call.op, call.args))
        if stored is None:
            return None
        meta = dict(stored.get("meta") or {})
        warnings = []
        if call.dry_run:
            from ..diff_text import SECTIONS

            # The real call would replay this answer and write nothing: the diff of the run that first gave it is not its own.
            meta["dry_run"] = True
            meta["diff"] = {section: [] for section in SECTIONS}
            warnings.append(f"idempotency key {call.idempotency_key!r} already has an answer: the real call would replay it, and nothing would be written")
        return Outcome(stored.get("result"), meta, warnings, replayed=True)

    def _check_digest(self, call: Call, digest: str) -> None:
        if call.expected_digest and call.expected_digest != digest:
            raise ConflictError(
                "the state this call reads changed since its dry-run; dry-run again and review the new diff",
                expected_state_digest=call.expected_digest,
                state_digest=digest,
            )

    def _context(self, invocation: Invocation, tx: Any) -> HandlerContext:
        call = invocation.call
        return HandlerContext(call.record.op, call.record, tx, invocation.session, self._settings, call.dry_run)

    def _call_handler(self, invocation: Invocation, handler: Handler, ctx: HandlerContext) -> Any:
        interrupt = getattr(ctx.tx, "interrupt", None)
        watch = WATCHDOG.watch(invocation.deadline, interrupt) if interrupt else None
        try:
            return handler.fn(ctx, invocation.call.args)
        except Exception as exc:
            if watch is not None and has_fired(watch):
                raise OpError(f"{ctx.op} did not finish within {invocation.timeout_s:g} s and was stopped; nothing was written", retryable=True) from None
            if isinstance(exc, NulInText):  # psycopg's refusal names no column: name the argument that carried the NUL
                raise exc.naming(invocation.call.args) from exc
            raise
        finally:
            if watch is not None:
                watch[CALLBACK] = None  # cancel()'s body: one Python call less on every call

    def _run_external(self, invocation: Invocation, handler: Handler) -> Outcome:
        call = invocation.call
        if call.dry_run:
            raise InvalidArguments(
                f"{call.op} reaches outside the workspace, so it cannot be dry-run without risking a real effect; call it without dry_run",
                field_errors=[{"field": "dry_run", "path": "/dry_run", "code": "not_supported", "message": "this op cannot be dry-run"}],
            )
        ctx = self._context(invocation, None)
        result = handler.fn(ctx, call.args)
        return Outcome(result, warnings=ctx.warnings)

    def _run_read(self, invocation: Invocation, handler: Handler) -> Outcome:
        call = invocation.call
        # Hashing what was read is for a dry-run to hand out or a digest to check; a plain read notes nothing.
        with self._store().read(observe=call.dry_run or bool(call.expected_digest)) as tx:
            ctx = HandlerContext(call.record.op, call.record, tx, invocation.session, self._settings, call.dry_run)  # _context's body
            result = self._call_handler(invocation, handler, ctx)
            meta: dict[str, Any] = {}
            if call.dry_run or call.expected_digest:
                digest = tx.state_digest()
                self._check_digest(call, digest)
                if call.dry_run:
                    meta = {"dry_run": True, "dry_run_kind": READ, "state_digest": digest}
        return Outcome(result, meta, ctx.warnings, False, ctx.named_ids)  # (replayed, entities) by position: every read returns here

    def _with_retries(self, call: Call, attempt: Callable[[], Outcome], *, first: int = 0) -> Outcome:
        """``attempt()``, again after a retryable failure, with backoff; ``first``: attempts already made."""
        retries = self._retries(call)
        for n in range(first, retries + 1):
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

    def _run_write(self, invocation: Invocation, handler: Handler) -> Outcome:
        call, session = invocation.call, invocation.session
        key = call.idempotency_key
        print_ = fingerprint(call.op, call.args) if key else ""
        # Only the state the write is applied to must be read under the lock; see Handler.reads_before_lock.
        lock_late = handler.reads_before_lock and not (call.dry_run or call.expected_digest or key)
        with self._store().write(dry_run=call.dry_run, lock_late=lock_late) as tx:
            if key:
                # Checked again under the write lock: a duplicate may have committed since replay().
                stored = stored_response(tx, session.caller, key, print_)
                if stored is not None:
                    tx.rollback()
                    return Outcome(stored.get("result"), dict(stored.get("meta") or {}), replayed=True)
            ctx = self._context(invocation, tx)
            with seeded_ids(call.id_seed, reused=call.id_seed_given):
                result = self._call_handler(invocation, handler, ctx)
            # A lock_late write checks no digest (see above), so it hashes its reads after the commit.
            digest = None if lock_late else tx.state_digest()
            if digest is not None:
                self._check_digest(call, digest)
            diff = tx.changes.to_dict()
            meta: dict[str, Any] = {"diff": diff, "state_digest": digest, "names": diff_names(tx, diff, call.args)}
            if call.dry_run:
                meta["dry_run"] = True
                meta["dry_run_kind"] = ROLLBACK
                # Passed back with the digest, the real run creates the ids this diff shows.
                meta["id_seed"] = call.id_seed
            if key and not call.dry_run:
                import secrets  # here: a read never sweeps, and secrets costs a command line ~2 ms of imports

                if secrets.randbelow(EXPIRY_SWEEP_EVERY) == 0:
                    tx.delete_expired_idempotency_keys()
                tx.put_idempotency_key(
                    session.caller, key, fingerprint=print_, status="completed",
                    response={"result": result, "meta": {"diff": meta["diff"]}}, ttl_seconds=self._settings.idempotency_ttl_s,
                )
        if digest is None:
            meta["state_digest"] = tx.state_digest()  # the reads' log outlives the transaction; the key keeps its place
        return Outcome(result, meta, ctx.warnings)
