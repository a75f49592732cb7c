"""Confirmation for 2026-07-28 clients: asked in one call, answered in the next, by any server process.

At 2026-07-28 a server may not send the client a request. To ask, a tool
call answers with an ``InputRequiredResult`` (SEP-2322): an elicitation form
and an opaque ``requestState``; the client shows the form and calls the tool
again with the answer and the state. Behind a load balancer that second call
may reach another server process, so nothing about the question lives in
the process that asked:

- The first call runs until the op that needs confirmation has been
  dry-run; the approver (:class:`DeferredChannel`) then refuses it with
  ``awaiting_confirmation`` instead of blocking, so nothing is written and no
  thread waits. The question is kept in the store (``pending_confirmations``,
  migration 0008): the caller, the call's fingerprint, the op and a
  fingerprint of its arguments, the state digest and id seed of the dry-run
  the person is shown, and for a batch the envelopes of the steps already
  done. Only a digest of the request state is stored.
- The answering call, in any process, claims that row under the write lock
  (it is deleted: an answer is redeemed once) and runs the call again with an
  approver that says the person's answer to that op and those arguments
  only. The op runs against the state the person saw: the dry-run's digest
  is required (a change since is CONFLICT, nothing written) and its id seed
  reused, so the ids created are the ones shown. A batch continues from the
  step that asked; the steps before it are answered as they were, never run
  twice.

Waiting costs a row, not a thread: at most ``PENDING_PER_CALLER``
confirmations wait per caller and ``PENDING_TOTAL`` in all, counted in the
store, so the bounds hold across processes. An unanswered question expires
after the confirmation timeout.
"""

from __future__ import annotations

import hashlib
import json
import logging
import secrets
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio.to_thread
import mcp_types as types

from opgate.core.exec import (
    CONFLICT,
    ConfirmationRequest,
    ConflictError,
    PermissionDenied,
    awaits_confirmation,
    failure,
)
from opgate.core.exec._idempotency import fingerprint as args_fingerprint
from opgate.core.modes._gateway_tools import EXEC_SCHEMA
from opgate.core.store import StoreError

from ._confirmation import CONFIRM_FIELD, confirmation_form, is_confirmed
from ._tools import tool_result

log = logging.getLogger(__name__)

PENDING_PER_CALLER = 16
PENDING_TOTAL = 1024
"""Confirmations that may wait for an answer, per caller and in all; a waiting one holds a row, not a thread."""

RunCall = Callable[["DeferredChannel", Any, "dict[int, dict[str, Any]] | None"], Awaitable[Any]]
"""Runs the tool call with this channel as its way to ask, these arguments, and the batch steps already done."""


def call_fingerprint(name: str, arguments: dict[str, Any] | None) -> str:
    """Identifies a tool call, so that an answer is only accepted by a retry of the call it was asked for."""
    text = json.dumps([name, arguments or {}], sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _stamp(moment: datetime) -> str:
    # One fixed format (microseconds, UTC) so that stamps compare as text in both dialects.
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _state_hash(state: str) -> str:
    return hashlib.sha256(state.encode()).hexdigest()


class DeferredChannel:
    """The approver's channel for one 2026-07-28 tool call (it runs in the worker thread).

    Given the claimed row of an answered question (``approved``), it answers
    the first confirmation of that op with those arguments with the person's
    answer. Any other confirmation is a new question: it is noted in
    ``asked`` and refused with ``awaiting_confirmation``, so nothing runs.
    """

    def __init__(self, store: Callable[[], Any], caller: str, *, approved: dict[str, Any] | None = None, confirmed: bool = False):
        self._store = store
        self._caller = caller
        self._approved = approved
        self._confirmed = confirmed
        self.asked: ConfirmationRequest | None = None

    def ask(self, request: ConfirmationRequest) -> bool:
        row = self._approved
        if row is not None and request.op == row["op"] and args_fingerprint(request.op, request.args) == row["args_fingerprint"]:
            self._approved = None  # one answer, one confirmation
            if not self._confirmed:
                return False
            digest = request.preview.get("meta", {}).get("state_digest")
            if row["state_digest"] and digest != row["state_digest"]:
                raise ConflictError(
                    f"the data {request.op} would change has changed since the person saw its diff; nothing was written. "
                    "Call again to see the new diff and be asked again.",
                    state_changed=True,
                )
            return True
        if self.asked is not None:
            raise PermissionDenied(f"{request.op} needs a person's confirmation, and this call already asked one question; nothing was written.", requires_confirmation=True)
        self._check_room(request.op)
        self.asked = request
        raise PermissionDenied(
            f"{request.op} needs a person's confirmation; the question went to the client and the answer comes with its next call. Nothing was written.",
            requires_confirmation=True, awaiting_confirmation=True,
        )

    def _check_room(self, op: str) -> None:
        with self._store().read() as tx:
            mine, total = tx.pending_confirmation_counts(self._caller, _stamp(datetime.now(UTC)))
        if mine >= PENDING_PER_CALLER:
            raise PermissionDenied(
                f"{op} needs a person's confirmation, and this caller already has {PENDING_PER_CALLER} waiting for an answer; "
                "nothing was written. Answer those first, or let them expire, then call again.",
                requires_confirmation=True,
            )
        if total >= PENDING_TOTAL:
            raise PermissionDenied(
                f"{op} needs a person's confirmation, and the server already has {PENDING_TOTAL} waiting for an answer; "
                "nothing was written. Call again later.",
                requires_confirmation=True,
            )


class PendingConfirmations:
    """The questions 2026-07-28 clients were asked, kept in the workspace store so that any process can take the answer."""

    def __init__(self, store: Callable[[], Any], timeout: float):
        self._store = store  # opened on first use, as the gateway's is
        self.timeout = timeout

    @property
    def store(self) -> Any:
        return self._store()

    async def start(self, caller: str, fingerprint: str, arguments: Any, run: RunCall) -> types.CallToolResult | types.InputRequiredResult:
        """Run a call; if it asks, keep the question and answer with it."""
        channel = DeferredChannel(self._store, caller)
        answer = await run(channel, arguments, None)
        return await self._outcome(channel, answer, caller, fingerprint)

    async def resume(
        self, caller: str, fingerprint: str, state: str, responses: dict[str, Any] | None, name: str, arguments: Any, run: RunCall,
    ) -> types.CallToolResult | types.InputRequiredResult | None:
        """Redeem the answer to a question this caller was asked for this call; ``None`` when none waits."""
        now = _stamp(datetime.now(UTC))
        try:
            row = await anyio.to_thread.run_sync(self._claim, _state_hash(state), caller, fingerprint, now)
        except StoreError as exc:
            log.warning("could not read the confirmation's question: %s", exc)
            return tool_result(failure(name, CONFLICT, "the workspace is busy; nothing was written. Send the same answer again shortly.", help_path="root", retryable=True))
        if row is None:
            return None
        channel = DeferredChannel(self._store, caller, approved=row, confirmed=is_confirmed((responses or {}).get(CONFIRM_FIELD)))
        batch = row["done_steps"]
        done = {int(step): envelope for step, envelope in batch["done"].items()} if batch else None
        answer = await run(channel, _as_shown(name, arguments, row), done)
        return await self._outcome(channel, answer, caller, fingerprint)

    def _claim(self, state_hash: str, caller: str, fingerprint: str, now: str) -> dict[str, Any] | None:
        with self.store.write() as tx:
            return tx.claim_pending_confirmation(state_hash, caller, fingerprint, now)

    async def _outcome(self, channel: DeferredChannel, answer: Any, caller: str, fingerprint: str) -> types.CallToolResult | types.InputRequiredResult:
        request = channel.asked
        if request is None:
            return tool_result(answer)
        state = secrets.token_urlsafe(24)
        now = datetime.now(UTC)
        meta = request.preview.get("meta", {})
        row = {
            "state_hash": _state_hash(state), "caller": caller, "call_fingerprint": fingerprint, "op": request.op,
            "args_fingerprint": args_fingerprint(request.op, request.args), "state_digest": meta.get("state_digest"),
            "id_seed": meta.get("id_seed"), "done_steps": _done_steps(answer),
            "created_at": _stamp(now), "expires_at": _stamp(now + timedelta(seconds=self.timeout)),
        }
        try:
            await anyio.to_thread.run_sync(self._keep, row)
        except StoreError as exc:
            log.warning("could not keep the question to confirm %s: %s", request.op, exc)
            return tool_result(answer)  # the call says it needs confirmation; nothing of the op was written
        form = confirmation_form(request)
        return types.InputRequiredResult(input_requests={CONFIRM_FIELD: types.ElicitRequest(params=form)}, request_state=state)

    def _keep(self, row: dict[str, Any]) -> None:
        with self.store.write() as tx:
            tx.put_pending_confirmation(row)


def _done_steps(answer: Any) -> dict[str, Any] | None:
    """For a batch that stopped to ask: the step that asked and the envelopes of the steps before it."""
    if not isinstance(answer, list):
        return None
    asking = next((envelope["step"] for envelope in answer if awaits_confirmation(envelope)), None)
    if asking is None:
        return None
    return {"step": asking, "done": {str(e["step"]): e for e in answer if isinstance(e.get("step"), int) and e["step"] < asking}}


def _as_shown(name: str, arguments: Any, row: dict[str, Any]) -> Any:
    """The arguments to run again with the shown dry-run's digest and id seed, where the call did not give its own."""
    shown = {"state_digest": row["state_digest"], "id_seed": row["id_seed"]}
    if not isinstance(arguments, dict):
        return arguments
    if name == "exec":
        # The exec tool takes an id seed once its schema says so (a batch step always does).
        taken = {k: v for k, v in shown.items() if v and k in EXEC_SCHEMA["properties"]}
        return {**taken, **arguments}
    batch = row["done_steps"]
    steps = arguments.get("steps")
    if name == "batch" and batch and isinstance(steps, list) and 0 <= batch["step"] < len(steps):
        step = steps[batch["step"]]
        if isinstance(step, dict) and step.get("tool") == "exec" and isinstance(step.get("args"), dict):
            steps = list(steps)
            steps[batch["step"]] = {**step, "args": {**{k: v for k, v in shown.items() if v}, **step["args"]}}
            return {**arguments, "steps": steps}
    return arguments
