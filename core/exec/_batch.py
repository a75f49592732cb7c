"""batch: several help and exec calls in one round trip.

Steps are ``{"tool": "help" | "exec", "args": {...}}``. Consecutive reads run
concurrently (up to the batch's limit) unless one refers to another's result;
writes run one at a time, in order. Each step gets its own envelope, with
its index as ``step``. With ``on_error="stop"`` the steps after a failure are
not run and say so; reads that ran side by side with the failing step keep
their results (they ran at the same time and changed nothing). A batch may
not contain a batch.

A step that asked a person and will get the answer with a later call (a
2026-07-28 client's confirmation, ``awaiting_confirmation``) stops the
batch whatever ``on_error`` says: the steps after it have not run. The
later call runs the batch again inside :func:`resuming_batch`, given the
envelopes of the steps that already ran: those are answered as they were,
never run twice, and the batch carries on from the step that asked.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Executor
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from ..echo_text import quoted
from ._envelope import failure, new_trace_id, success
from ._batch_steps import step_flag_errors, step_shape_errors, step_shape_message
from ._errors import CONFLICT, INTERNAL, NOT_FOUND, VALIDATION_ERROR
from ._references import UnresolvedReference, references_in, resolve_references
from ._results import bound_envelope

log = logging.getLogger("opgate.batch")
ON_ERROR = ("stop", "continue")


_resumed: ContextVar[dict[int, dict[str, Any]] | None] = ContextVar("opgate_resumed_batch", default=None)


@contextmanager
def resuming_batch(done: dict[int, dict[str, Any]] | None) -> Iterator[None]:
    """Run the batch inside as the continuation of one that stopped to ask: ``done`` holds the envelopes of its steps that ran."""
    token = _resumed.set(done)
    try:
        yield
    finally:
        _resumed.reset(token)


def awaits_confirmation(envelope: Any) -> bool:
    """Whether a step stopped because it asked a person whose answer comes with a later call."""
    return isinstance(envelope, dict) and not envelope.get("ok") and bool(((envelope.get("error") or {}).get("details") or {}).get("awaiting_confirmation"))


# A step's own error is a sentence; only an echoed input (a tool name, a reference) could make it long.
STEP_ERROR_CHAR_LIMIT = 4_000


def _step_error(index: int, op: str, code: str, message: str, help_path: str = "root", **details: Any) -> dict[str, Any]:
    envelope = bound_envelope(failure(op, code, message, help_path=help_path, trace_id=new_trace_id(), **details), STEP_ERROR_CHAR_LIMIT)
    envelope["step"] = index
    return envelope


# help speaks the discovery protocol's codes; a batch envelope carries exec's five.
_HELP_CODES = {"UNKNOWN_PATH": NOT_FOUND}


def _help_envelope(payload: dict[str, Any], started: float) -> dict[str, Any]:
    if payload.get("ok"):
        return success("help", payload, trace_id=new_trace_id(), latency_ms=(time.perf_counter() - started) * 1000, warnings=[])
    error = payload["error"]
    hints = [h for h in error.get("hints") or [] if isinstance(h, str)]
    code = _HELP_CODES.get(error["code"], error["code"])
    return failure("help", code, error["message"], help_path=hints[0] if hints else "root", hints=hints, next_action=error.get("next_action"), protocol_code=error["code"])


class BatchRunner:
    def __init__(self, *, help_fn: Callable[..., dict], exec_fn: Callable[..., dict], is_read: Callable[[Any], bool], max_steps: int, pool: Executor):
        self._help = help_fn
        self._exec = exec_fn
        self._is_read = is_read
        self._max_steps = max_steps
        # A long-lived pool: its threads keep their database connections between batches.
        self._pool = pool

    def run(self, steps: Any, on_error: str = "stop") -> list[dict[str, Any]]:
        problem = self._check(steps, on_error)
        if problem:
            return [_step_error(0, "batch", VALIDATION_ERROR, problem, help_path="root")]
        results: dict[int, dict[str, Any]] = {i: e for i, e in (_resumed.get() or {}).items() if 0 <= i < len(steps)}
        stopped_at: int | None = None
        awaiting = False
        for segment in self._segments(steps):
            segment = [i for i in segment if i not in results]
            if not segment:
                continue
            if stopped_at is not None:
                reason = f"waits for a person's confirmation of step {stopped_at}" if awaiting else f"step {stopped_at} failed and on_error is 'stop'"
                for index in segment:
                    results[index] = _step_error(index, self._op_of(steps[index]), CONFLICT, f"not run: {reason}", failed_step=stopped_at)
                continue
            # Steps read a snapshot of the answers so far: only earlier segments can be referenced,
            # and the dict itself changes while this segment runs.
            earlier = dict(results)
            if len(segment) == 1:
                results[segment[0]] = self._run_step(segment[0], steps[segment[0]], earlier)
            else:
                futures = {i: self._pool.submit(self._run_step, i, steps[i], earlier) for i in segment}
                for i, future in futures.items():
                    results[i] = future.result()
            failed = [i for i in segment if not results[i].get("ok")]
            asked = [i for i in segment if awaits_confirmation(results[i])]
            if asked:
                stopped_at, awaiting = min(asked), True
            elif failed and on_error == "stop":
                stopped_at = min(failed)
        return [results[i] for i in range(len(steps))]

    def _check(self, steps: Any, on_error: str) -> str | None:
        if not isinstance(steps, list) or not steps:
            return "steps must be a non-empty list of {tool, args} objects"
        if len(steps) > self._max_steps:
            return f"a batch holds at most {self._max_steps} steps, not {len(steps)}; split it"
        if on_error not in ON_ERROR:
            return f"on_error must be 'stop' or 'continue', not {quoted(on_error)}"
        return None

    @staticmethod
    def _op_of(step: Any) -> str:
        if isinstance(step, dict) and step.get("tool") == "exec" and isinstance(step.get("args"), dict):
            op = step["args"].get("op")
            return op if isinstance(op, str) else "exec"
        return step.get("tool", "?") if isinstance(step, dict) and isinstance(step.get("tool"), str) else "?"

    def _reads(self, step: Any) -> bool:
        if not isinstance(step, dict):
            return True
        if step.get("tool") == "help":
            return True
        args = step.get("args") if isinstance(step.get("args"), dict) else {}
        return step.get("tool") == "exec" and not args.get("dry_run") and self._is_read(args.get("op"))

    def _segments(self, steps: list[Any]) -> list[list[int]]:
        """Runs of steps that may go together: reads that do not refer to each other."""
        segments: list[list[int]] = []
        for index, step in enumerate(steps):
            current = segments[-1] if segments else None
            refs = references_in(step.get("args")) if isinstance(step, dict) else set()
            joinable = (
                current is not None
                and self._reads(step)
                and all(self._reads(steps[i]) for i in current)
                and not refs & set(current)
            )
            if joinable:
                current.append(index)
            else:
                segments.append([index])
        return segments

    def _run_step(self, index: int, step: Any, results: dict[int, dict[str, Any]]) -> dict[str, Any]:
        try:
            envelope = self._step(index, step, results)
        except Exception:  # one step's surprise must not take the others' answers with it
            log.exception("batch step %s failed unexpectedly", index)
            envelope = _step_error(index, self._op_of(step), INTERNAL, f"step {index} failed unexpectedly; nothing it did was kept")
        envelope["step"] = index
        return envelope

    def _step(self, index: int, step: Any, results: dict[int, dict[str, Any]]) -> dict[str, Any]:
        if isinstance(step, dict) and step.get("tool") == "batch":
            return _step_error(index, "batch", VALIDATION_ERROR, "a batch cannot contain a batch; put its steps in this one")
        shape_errors = step_shape_errors(index, step)
        if shape_errors:
            return _step_error(index, self._op_of(step), VALIDATION_ERROR, step_shape_message(index, shape_errors), field_errors=shape_errors)
        tool = step["tool"]
        try:
            args = resolve_references(step.get("args", {}), {i: e for i, e in results.items() if i < index})
        except UnresolvedReference as exc:
            return _step_error(index, self._op_of(step), VALIDATION_ERROR, f"cannot resolve {exc}", reference=exc.reference)
        flag_errors = step_flag_errors(index, tool, args)
        if flag_errors:
            name = flag_errors[0]["field"].rsplit(".", 1)[1]
            return _step_error(index, self._op_of(step), VALIDATION_ERROR, f"step {index}: {name}: {flag_errors[0]['message']}", field_errors=flag_errors)
        started = time.perf_counter()
        if tool == "help":
            unknown = set(args) - {"path", "format", "include_examples", "include_schemas", "cursor"}
            if unknown:
                return _step_error(index, "help", VALIDATION_ERROR, f"help takes path, format, include_examples, include_schemas and cursor; not {sorted(unknown)}")
            return _help_envelope(self._help(**args), started)
        unknown = set(args) - {"op", "args", "idempotency_key", "dry_run", "state_digest", "id_seed"}
        if unknown:
            return _step_error(index, self._op_of(step), VALIDATION_ERROR, f"exec takes op, args, idempotency_key, dry_run, state_digest and id_seed; not {sorted(unknown)}")
        envelope = self._exec(
            args.get("op"), args.get("args"), idempotency_key=args.get("idempotency_key"), dry_run=bool(args.get("dry_run", False)),
            state_digest=args.get("state_digest"), id_seed=args.get("id_seed"),
        )
        return _rehearsal_explained(envelope, references_in(step.get("args")), results)


def _rehearsal_explained(envelope: dict[str, Any], referenced: set[int], results: dict[int, dict[str, Any]]) -> dict[str, Any]:
    """A NOT_FOUND after a reference to a dry-run that created something says the dry-run's rows were rolled back.

    Each dry-run step rolls back its own transaction, so an id it showed as
    created exists nowhere a later step can look; "no goal has id ..." alone
    reads as a wrong reference.
    """
    error = envelope.get("error")
    if envelope.get("ok") or not isinstance(error, dict) or error.get("code") != NOT_FOUND:
        return envelope
    rehearsed = sorted(i for i in referenced if _created_in_dry_run(results.get(i)))
    if not rehearsed:
        return envelope
    steps = ", ".join(map(str, rehearsed))
    was = "was a dry-run" if len(rehearsed) == 1 else "were dry-runs"
    error["message"] = (
        f"{error.get('message', '')} (step {steps} {was}: what it created was rolled back, so no later step can find it; "
        f"run step {steps} for real first, or dry-run this step on its own)"
    )
    error.setdefault("details", {})["dry_run_steps"] = rehearsed
    return envelope


def _created_in_dry_run(envelope: dict[str, Any] | None) -> bool:
    meta = (envelope or {}).get("meta") or {}
    return bool(envelope and envelope.get("ok") and meta.get("dry_run") and ((meta.get("diff") or {}).get("created")))
