"""exec: resolve, validate, authorize, run (or dry-run), and answer with an envelope.

The dispatcher never raises to its caller. Every failure, expected or not,
becomes an error envelope with a code, a message that says how to fix the
call, its field errors, and a help path.
"""

from __future__ import annotations

import copy
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from .._log import LazyLogger
from ..registry._record import OpRecord
from ..registry._registry import Registry
from ..settings import GatewaySettings
from ..executors._base import PREVIEW, Invocation, Outcome
from ..executors._keyed import replay_keyed, run_keyed
from ..executors._redact import redact
from ..store import Conflict, InvalidValue, NotFound, StoreBusy, StoreError
from ._envelope import failure, new_trace_id, success
from ._errors import CONFLICT, INTERNAL, NOT_FOUND, VALIDATION_ERROR, ConflictError, OpError, PermissionDenied
from ._prepare import Call, CallRejected, prepare_call, resolve_op
from ._entity_ids import entities_named, entities_touched
from ._results import bound_envelope, bound_result, bound_success
from ._session import Session
from ..access import Caller
from ._validation import ArgumentValidator
from ._waiting import NO_WAIT, PersonWait

if TYPE_CHECKING:  # confirmation's classes load with the first op that needs a person's confirmation
    from ._confirm import Approver, Asker

log = LazyLogger("opgate.exec")  # logging loads on the first line logged


def _store_error(exc: StoreError) -> tuple[str, str, dict[str, Any]]:
    if isinstance(exc, NotFound):
        return NOT_FOUND, str(exc), {"kind": exc.kind, "id": exc.id}
    if isinstance(exc, Conflict):
        return CONFLICT, exc.reason, dict(exc.details)
    if isinstance(exc, InvalidValue):
        return VALIDATION_ERROR, str(exc), {"field_errors": [{"field": f"args.{exc.field}", "path": f"/{exc.field}", "code": "invalid_value", "message": str(exc), **({"allowed": list(exc.allowed)} if exc.allowed else {})}]}
    if isinstance(exc, StoreBusy):
        return CONFLICT, "the workspace is busy with another write; retry shortly", {"retryable": True}
    return INTERNAL, str(exc), {}


class Dispatcher:
    """The exec path shared by every front end, batch and the gateway tools.

    One pipeline for every op, whatever runs it: resolve, validate,
    authorize, confirm, then hand the call to the op's executor (see
    :mod:`opgate.core.executors`) and turn what comes back into an envelope.
    The hard timeout, dry-run previews, idempotency for upstreams and secret
    redaction live here once, not in each executor.
    """

    def __init__(
        self,
        registry: Registry,
        *,
        store_provider: Callable[[], Any],
        executors: Any,
        visible: Callable[[OpRecord], bool],
        settings: GatewaySettings,
        telemetry: Any,
        context: str | None = None,
        unavailable: Callable[[str], str | None] | None = None,
    ):
        self.registry = registry
        self.unavailable = unavailable
        self.visible = visible
        self.settings = settings
        self.validator = ArgumentValidator()
        self.executors = executors
        self._store = store_provider
        self.telemetry = telemetry  # an opgate.core.telemetry.Telemetry
        self.context = context

    def exec(
        self,
        op: Any,
        args: Any,
        session: Session,
        allow_write: bool,
        approver: Approver | None = None,
        idempotency_key: str | None = None,
        dry_run: bool = False,
        state_digest: str | None = None,
        asker: Asker | None = None,
        id_seed: str | None = None,
        caller: Caller | None = None,
    ) -> dict[str, Any]:
        # Positional parameters: the gateway passes them in order, and ten keywords cost a read more to pass than some of its steps.
        trace_id = new_trace_id()
        started = time.perf_counter()
        started_at = time.time()
        shown_op = op if isinstance(op, str) else ""
        record: OpRecord | None = None
        call: Call | None = None
        # Only an approver or an asker can make a call wait for a person; otherwise the shared nobody's wait (always 0 s).
        waits = PersonWait() if approver is not None or asker is not None else NO_WAIT
        try:
            record = resolve_op(op, self.registry, self.visible, self.context, self.unavailable)
            shown_op = record.op
            executor = self.executors.for_record(record)  # a browse-only op stops here, with its reason
            call = prepare_call(record, args, shown_op, dry_run, idempotency_key, state_digest, session, self.validator, id_seed)
            if record.kind == "write":  # a read needs no permission beyond being visible
                self._authorize(call, allow_write, caller)
            # A repeat of a confirmed write replays its first answer without asking again.
            # Only a call with an idempotency key can have an answer to replay (both ways of replaying say None at once without one).
            outcome = self._replay(executor, call, session) if call.idempotency_key else None
            if outcome is None:
                if record.metadata.requires_confirmation and not call.dry_run:
                    self._confirm(call, executor, session, approver, caller, waits)
                outcome = self._run(executor, call, session, waits.wrap(asker) if asker is not None else None)
            envelope = bound_success(self._success(call, outcome, trace_id, started, waits.seconds), self.settings.result_char_limit)
            if not call.dry_run:
                # A dry-run's ids were rolled back: they must not become the session's.
                session.learn_from(call.args, outcome.result)
        except Exception as exc:  # the boundary: nothing escapes
            envelope = bound_envelope(self._failure(shown_op, record, exc, trace_id, args, dry_run), self.settings.result_char_limit)
        self.telemetry.record_exec(envelope, record, call, session, op, args, started, started_at, bool(dry_run), waits.seconds)
        return envelope

    def _authorize(self, call: Call, allow_write: bool, caller: Caller | None) -> None:
        if call.record.kind == "write" and not call.dry_run and not allow_write:
            if caller is not None and not caller.may_write:
                raise PermissionDenied(f"{call.op} writes: {caller.write_refusal()}", dry_run_available=True)
            raise PermissionDenied(
                f"{call.op} writes, and writes are off (allow_write is false). Dry-run it to see the diff, or ask the person to enable writes.",
                dry_run_available=True,
            )

    def _replay(self, executor: Any, call: Call, session: Session) -> Outcome | None:
        if executor.keeps_idempotency:
            return executor.replay(call, session)
        return replay_keyed(self._store, call, session)

    def _run(self, executor: Any, call: Call, session: Session, asker: Asker | None) -> Outcome:
        """Run the call on its executor under the hard timeout; a ``preview`` dry-run sends nothing."""
        kind = executor.dry_run_kind(call) if call.dry_run else None
        if kind == PREVIEW:
            preview = redact(executor.preview(call), getattr(executor, "secrets", ()))
            return Outcome(None, {"dry_run": True, "dry_run_kind": PREVIEW, "preview": preview}, [f"nothing was sent: {call.op} cannot rehearse a call, so this shows what would be sent"])
        settings = self.settings
        invocation = Invocation(call, session, settings, time.monotonic() + settings.hard_timeout_s, asker)  # (deadline, ask) by position
        if executor.keeps_idempotency:
            outcome = executor.run(invocation)
        else:
            outcome = run_keyed(self._store, call, session, lambda: executor.run(invocation), ttl_seconds=self.settings.idempotency_ttl_s)
        if kind is not None:
            outcome.meta.setdefault("dry_run", True)
            outcome.meta.setdefault("dry_run_kind", kind)
        return outcome

    def _confirm(
        self, call: Call, executor: Any, session: Session, approver: Approver | None, caller: Caller | None, waits: PersonWait,
    ) -> None:
        if approver is None and caller is not None and not caller.may_confirm:
            raise PermissionDenied(f"{call.op} needs a person's confirmation: {caller.confirm_refusal()}", requires_confirmation=True)
        if approver is None:
            raise PermissionDenied(
                f"{call.op} needs a person's confirmation, and this front end has no way to ask; dry-run it, or run it from the explorer or the REPL",
                requires_confirmation=True,
            )
        preview_call = Call(call.requested, call.record, call.args, True, None, call.expected_digest, list(call.warnings), call.id_seed, call.id_seed_given)
        # Nobody answers an upstream's questions during a preview: the real run asks.
        preview = self._run(executor, preview_call, session, None)
        from ._confirm import ConfirmationRequest

        # The approver sees a copy: nothing it does can change what runs.
        request = ConfirmationRequest(call.op, copy.deepcopy(call.args), call.record.summary, {"result": preview.result, "meta": preview.meta})
        try:
            approved = bool(waits.around(approver, request))
        except (PermissionDenied, ConflictError):  # an approver that cannot ask, or finds the state changed, says why in its own words
            raise
        except Exception:
            log.exception("approver failed for %s", call.op)
            approved = False
        if not approved:
            raise PermissionDenied(f"the person did not confirm {call.op}; nothing was written", requires_confirmation=True, cancelled=True)
        # The person approved this diff: if the state it came from changes before
        # the real run, the run fails with CONFLICT instead of doing something else.
        call.expected_digest = call.expected_digest or preview.meta.get("state_digest")

    def _success(self, call: Call, outcome: Outcome, trace_id: str, started: float, waited_s: float = 0.0) -> dict[str, Any]:
        warnings = [*call.warnings, *outcome.warnings]
        latency_ms = (time.perf_counter() - started - waited_s) * 1000
        budget = call.record.metadata.latency_budget_ms or self.settings.default_latency_budget_ms
        if latency_ms > budget:
            warnings.append(f"took {latency_ms:.0f} ms, over its latency budget of {budget} ms")
        result, cuts = bound_result(outcome.result, self.settings.result_char_limit)
        meta = dict(outcome.meta)
        if waited_s:
            meta["waited_ms"] = round(waited_s * 1000, 2)
        if outcome.replayed:
            meta["idempotent_replay"] = True
        if cuts:
            meta["truncated"] = cuts
        if outcome.entities is not None:
            entities = entities_named(outcome.entities, meta.get("diff"))
        else:
            entities = entities_touched(outcome.result, meta.get("diff"))
        if entities:
            meta["entities"] = entities
        return success(call.record.op, result, trace_id, latency_ms, warnings, meta)

    def _help_path(self, record: OpRecord | None, exc: Exception) -> str:
        if record is not None:
            return record.op
        suggestions = getattr(exc, "details", {}).get("suggestions") if isinstance(exc, OpError) else None
        return suggestions[0] if suggestions else "root"

    def _failure(self, op: str, record: OpRecord | None, exc: Exception, trace_id: str, raw_args: Any, dry_run: Any = False) -> dict[str, Any]:
        help_path = self._help_path(record, exc)
        if isinstance(exc, OpError):
            details = dict(exc.details)
            if exc.retryable:
                details["retryable"] = True
            return failure(op, exc.code, exc.message, help_path=help_path, field_errors=exc.field_errors, trace_id=trace_id, **details)
        if isinstance(exc, StoreError):
            code, message, details = _store_error(exc)
            field_errors = details.pop("field_errors", None)
            if exc.retryable:
                details["retryable"] = True
            return failure(op, code, message, help_path=help_path, field_errors=field_errors, trace_id=trace_id, **details)
        log.exception("unexpected failure in %s (trace %s)", op, trace_id)
        return failure(op, INTERNAL, f"unexpected error while running {op or 'the call'}; {_what_was_written(record, dry_run)}. Trace {trace_id}.", help_path=help_path, trace_id=trace_id)


def _what_was_written(record: OpRecord | None, dry_run: Any) -> str:
    """What an unexpected failure can say of its effects: only the store's transaction is known to be rolled back.

    A write sent to an upstream (HTTP, MCP) or run by a tool folder's handler
    may have acted before the failure; saying "nothing was written" there
    invites a second send.
    """
    if record is None or dry_run or record.kind != "write" or record.binding.kind == "store":
        return "nothing was written"
    return "it may have acted; check before sending it again"


__all__ = ["CallRejected", "Dispatcher"]
