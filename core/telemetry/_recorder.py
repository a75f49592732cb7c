"""The gateway's recorder: one :class:`CallEvent` per call, to the call log and to listeners.

Front ends never call this: the Gateway, the dispatcher, the hybrid lane's
tools and the discovery protocol do, so that every host (CLI, REPL,
explorer, MCP server, Python) is recorded the same way. Recording costs the
call a few dictionary operations: the row is queued and written by the call
log's writer thread (see :class:`~opgate.core.exec.CallLog`), never inside
the call. Listeners run in the calling thread once the answer is ready; one
that raises is logged and skipped, and the call's answer is unchanged.

Nesting: a call that runs others (``run_tool``, ``call_tool``, ``batch``)
is the parent of the calls it makes, and the lane a host used (gateway
tools, a typed op tool, the generic pair, the protocol) is passed down to
them, through a context variable (so threads that run a batch's steps are
given it explicitly).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any

from .._call_log_row import CALL_ROW_KEYS
from .._log import LazyLogger
from .._record import field, record
from ..exec._envelope import new_trace_id
from ..exec._telemetry import CallLog, now_stamp, outcome_code
from ..echo_text import quoted
from ..safe_json import scrub_text
from ._events import CALL_KINDS, DISCOVERY_KINDS, CallEvent

log = LazyLogger("opgate.telemetry")  # logging loads on the first line logged

SUBJECT_CHARS = 300
"""A query or path longer than this is cut in the log (a client could send megabytes)."""
SURFACED_LIMIT = 10
"""Ops (or groups) a discovery step's log entry names; the trail remembers all it showed."""

Listener = Callable[[CallEvent], Any]

@record(frozen=True)
class _CallContext:
    parent_id: str | None = None  # the trace id of the call that makes the calls inside
    lane: str | None = None  # how the host reached them
    session: Any = None  # the caller's Session, when a router serves one of several callers


_CURRENT: ContextVar[_CallContext] = ContextVar("opgate_current_call", default=_CallContext())
# Set inside a step whose own answer uses help or search (expand_tool reads help, the lane
# and list_tools search): those inner calls are part of the step, not calls of their own.
_INSIDE_STEP: ContextVar[bool] = ContextVar("opgate_inside_step", default=False)


def current_call() -> tuple[str | None, str | None]:
    """``(parent trace id, lane)`` for a call made now."""
    context = _CURRENT.get()
    return context.parent_id, context.lane


@contextmanager
def calls_made_within(parent_id: str | None, lane: str | None, *, session: Any = None) -> Iterator[None]:
    """Calls made inside are logged as made by ``parent_id`` through ``lane``, in ``session``
    (``None`` keeps the current one)."""
    current = _CURRENT.get()
    token = _CURRENT.set(_CallContext(parent_id or current.parent_id, lane or current.lane, session if session is not None else current.session))
    inside = _INSIDE_STEP.set(False)  # a batch's help steps are calls of their own
    try:
        yield
    finally:
        _INSIDE_STEP.reset(inside)
        _CURRENT.reset(token)


def made_in_this_call(call: Callable[..., Any]) -> Callable[..., Any]:
    """``call``, logged as made inside the current call wherever it runs (a batch's pool threads)."""
    context = _CURRENT.get()

    def run(*args: Any, **kwargs: Any) -> Any:
        with calls_made_within(context.parent_id, context.lane, session=context.session):
            return call(*args, **kwargs)

    return run


def bounded_text(value: Any, chars: int = SUBJECT_CHARS) -> str:
    # A subject that is not text (a caller's mistake, refused later) is shown by quoted(), which never raises: str() of
    # an int past 4,300 digits or of a list nested past the recursion limit would.
    text = value if type(value) is str and value.isascii() else scrub_text(value if isinstance(value, str) else "" if value is None else quoted(value, chars))
    return text if len(text) <= chars else text[:chars] + "…"


@record
class Step:
    """A call being recorded; :meth:`done` says how it ended."""

    kind: str
    subject: str
    trace_id: str
    parent_id: str | None
    lane: str | None
    started: float = field(default_factory=time.perf_counter)
    started_at: float = field(default_factory=time.time)
    ok: bool | None = None
    code: str | None = None
    detail: dict[str, Any] = field(default_factory=dict)
    surfaced: list[str] = field(default_factory=list)
    new_chain: bool = False

    def done(self, ok: bool, code: str | None = None, *, subject: Any = None, surfaced: Iterable[str] = (), new_chain: bool = False, **detail: Any) -> None:
        """How the call ended. ``surfaced``: the ops or groups a discovery step showed; ``new_chain``: a search (a new intent)."""
        self.ok, self.code = bool(ok), (None if ok else code or "ERROR")
        if subject is not None:
            self.subject = bounded_text(subject)
        self.surfaced = [s for s in surfaced if isinstance(s, str)]
        self.new_chain = new_chain
        self.detail.update({k: bounded_text(v) if isinstance(v, str) else v for k, v in detail.items() if v is not None})

    def answered(self, answer: Any, **options: Any) -> None:
        """:meth:`done` from an answer in the envelope or discovery shape (``ok``, ``error.code``)."""
        ok = isinstance(answer, dict) and bool(answer.get("ok"))
        error = answer.get("error") if isinstance(answer, dict) else None
        code = error.get("code") if isinstance(error, dict) else None
        self.done(ok, code if isinstance(code, str) else "INTERNAL", **options)


class Telemetry:
    """Records each call the gateway answers; see :meth:`add_listener` for hooks."""

    def __init__(self, call_log: CallLog):
        self.call_log = call_log
        self._listeners: tuple[Listener, ...] = ()
        self._lock = threading.Lock()
        self._failed: set[int] = set()

    # -- listeners --------------------------------------------------------------

    def add_listener(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(event)`` after every call; returns a function that removes it."""
        if not callable(listener):
            raise TypeError(f"a telemetry listener is a callable taking a CallEvent, not {type(listener).__name__}")
        with self._lock:
            self._listeners = (*self._listeners, listener)
        return lambda: self.remove_listener(listener)

    def remove_listener(self, listener: Listener) -> None:
        with self._lock:
            kept = list(self._listeners)
            if listener in kept:
                kept.remove(listener)
            self._listeners = tuple(kept)

    @property
    def active(self) -> bool:
        """Whether anything keeps the events (a call log, or a listener): when not, nothing is built."""
        return self.call_log.enabled or bool(self._listeners)

    # -- recording ------------------------------------------------------------------

    @contextmanager
    def step(self, kind: str, session: Any, subject: Any = "", *, lane: str | None = None, wraps: bool = False) -> Iterator[Step]:
        """Record the call made inside the block.

        ``wraps``: the execs it makes are its children (run_tool, call_tool,
        batch). Otherwise the help and search calls it makes to build its own
        answer are part of it and not recorded apart; execs always are.
        """
        context = _CURRENT.get()
        session = context.session if context.session is not None else session  # a router's caller first
        hidden = _INSIDE_STEP.get()
        step = Step(kind, bounded_text(subject), new_trace_id(), context.parent_id, lane or context.lane)
        token = _CURRENT.set(_CallContext(step.trace_id if wraps else context.parent_id, step.lane, session))
        inside = _INSIDE_STEP.set(not wraps)
        try:
            yield step
        finally:
            _INSIDE_STEP.reset(inside)
            _CURRENT.reset(token)
            if step.ok is None:  # the block raised: the caller sees the exception, the log an INTERNAL
                step.done(False, "INTERNAL")
            if self.active and not hidden:
                self._finish(step, session)

    @contextmanager
    def unrecorded(self) -> Iterator[None]:
        """Help and search calls made inside are the caller's own work, not calls to record
        (the hybrid lane's search when a mode's tools are exported offline)."""
        token = _INSIDE_STEP.set(True)
        try:
            yield
        finally:
            _INSIDE_STEP.reset(token)

    def _finish(self, step: Step, session: Any) -> None:
        try:
            trail = session.trail
            chain_id = None
            if step.kind in DISCOVERY_KINDS:
                chain_id = None if step.new_chain else trail.chain_of(step.subject)
                if chain_id is None and step.ok:  # a refused step continues a chain but starts none
                    chain_id = step.trace_id
                if chain_id is not None:
                    trail.surface(chain_id, step.surfaced)
                if step.surfaced:
                    step.detail["surfaced"] = step.surfaced[:SURFACED_LIMIT]
            elif step.kind in CALL_KINDS:
                chain_id = trail.chain_of(step.subject)
            event = CallEvent(
                kind=step.kind, subject=step.subject, ok=bool(step.ok), code=step.code,
                duration_ms=round((time.perf_counter() - step.started) * 1000, 3),
                trace_id=step.trace_id, session_id=session.id, started_at=step.started_at,
                actor=getattr(session, "caller", "local") or "local", chain_id=chain_id,
                parent_id=step.parent_id, lane=step.lane, detail=dict(step.detail),
            )
        except Exception:
            log.warning("could not make the telemetry event of a %s call", step.kind, exc_info=True)
            return
        self.emit(event)

    def record_exec(
        self, envelope: dict[str, Any], record: Any, call: Any, session: Any, requested: Any, args: Any, started: float, started_at: float,
        dry_run: bool = False, waited_s: float = 0.0,
    ) -> None:
        """The dispatcher's exec: its row keeps the arguments (bounded), its event the rest.

        ``waited_s`` is the time spent waiting for the person (confirmation,
        questions): it is not the call's, so the duration leaves it out.
        """
        listeners = self._listeners
        call_log = self.call_log
        logging_calls = call_log.enabled
        if not (logging_calls or listeners):
            return
        try:
            context = _CURRENT.get()
            parent_id, lane = context.parent_id, context.lane
            meta = envelope.get("meta") or {}
            op = envelope.get("op") or (requested if isinstance(requested, str) else "")
            trail = session.trail
            lane_ops = trail.lane_ops  # trail.in_lane(op)'s body: one Python call less on every exec
            detail: dict[str, Any] | None = None if lane_ops is None else {"in_lane": op in lane_ops}
            subject = op if type(op) is str and op.isascii() and len(op) <= SUBJECT_CHARS else bounded_text(op)
            ok = bool(envelope.get("ok"))
            code = None if ok else outcome_code(envelope)  # a declined confirmation is CANCELLED in the log, not a refusal
            # round(..., 3) of a time, at a tenth of its cost (see to_hundredths): every exec pays it.
            duration_ms = int((time.perf_counter() - started - waited_s) * 1_000_000 + 0.5) / 1000
            trace_id = meta.get("trace_id", "")
            actor = getattr(session, "caller", "local") or "local"
            # trail.chain_of(op)'s first test, here: a session that never searched has no chains, and most calls need no call.
            chain_id = trail.chain_of(op) if trail._chains else None
            tool_name = record.tool_name if record else ""
            # A call refused before it was prepared is still logged as the dry-run it was asked to be.
            was_dry_run = bool(call.dry_run if call is not None else dry_run)
            event = None
            if listeners:
                event = CallEvent(
                    kind="exec", subject=subject, ok=ok, code=code, duration_ms=duration_ms, trace_id=trace_id, session_id=session.id,
                    started_at=started_at, actor=actor, chain_id=chain_id, parent_id=parent_id, lane=lane, tool_name=tool_name,
                    dry_run=was_dry_run, detail=detail or {},
                )
            entry = None
            if logging_calls:
                # The row straight from the same values (what event_row would give; the log adds the arguments):
                # no event is built for the log alone.
                if call is not None and call.plain_args:
                    # prepare_call found the arguments flat and ASCII, with ints short enough to write: nothing here can fail.
                    # The queued entry is the row's values with a copy of the arguments last, one tuple (see exec_row).
                    # call_row's tuple, spelled here: a call of fifteen positional values cost more than the tuple.
                    entry = (now_stamp(), trace_id, subject, tool_name, duration_ms, ok, code, was_dry_run, actor, "exec", session.id, chain_id,
                             parent_id, lane, scrub_text(dict(detail)) if detail else None, dict(args))
                else:
                    row = call_row(trace_id, subject, tool_name, duration_ms, ok, code, was_dry_run, actor, "exec", session.id, chain_id,
                                   parent_id, lane, detail)
                    entry = call_log.with_args(dict(zip(CALL_ROW_KEYS, row)), args)
        except Exception:
            log.warning("could not make the telemetry event of an exec", exc_info=True)
            return
        if entry is not None:
            try:
                call_log.append(entry)
            except Exception:
                log.warning("could not queue the call log entry of an exec call", exc_info=True)
        if event is not None:
            self._tell(event)

    def emit(self, event: CallEvent, row: dict[str, Any] | None = None) -> None:
        """Queue the event's call-log row and hand the event to every listener."""
        if self.call_log.enabled:
            try:
                self.call_log.append({**(row or {}), **event_row(event)})
            except Exception:
                log.warning("could not queue the call log entry of a %s call", event.kind, exc_info=True)
        self._tell(event)

    def _tell(self, event: CallEvent) -> None:
        """Hand the event to every listener."""
        for listener in self._listeners:
            try:
                listener(event)
            except Exception:
                # A broken hook is reported once, then quietly skipped: it must not flood the log either.
                if id(listener) not in self._failed:
                    self._failed.add(id(listener))
                    log.warning("telemetry listener %r failed; its later failures are not reported", listener, exc_info=True)


def event_row(event: CallEvent) -> dict[str, Any]:
    """The call-log columns an event fills (an exec's arguments come from the call log's own entry)."""
    return dict(zip(CALL_ROW_KEYS, call_row(
        event.trace_id, event.subject, event.tool_name, event.duration_ms, event.ok, event.code, event.dry_run, event.actor,
        event.kind, event.session_id, event.chain_id, event.parent_id, event.lane, event.detail,
    )))


def call_row(
    trace_id: str, subject: str, tool_name: str, duration_ms: float, ok: bool, code: str | None, dry_run: bool, actor: str,
    kind: str, session_id: str, chain_id: str | None, parent_id: str | None, lane: str | None, detail: Any, kept_args: Any = None,
) -> tuple[Any, ...]:
    """The call-log columns of a call (:data:`CALL_ROW_KEYS`, in order), from the values its event holds (an exec's row is made without the event),
    then ``kept_args`` (the copy of an exec's plain arguments, or ``None``), which ``zip`` with the keys leaves out.

    Positional: every exec calls it, and fourteen keywords cost more to pass than the row does to make.
    A tuple: an exec's entry becomes its stored row with no dict in between (see ``exec_row``).
    """
    return (now_stamp(), trace_id, subject, tool_name, duration_ms, ok, code, dry_run, actor,
            kind, session_id, chain_id, parent_id, lane, scrub_text(dict(detail)) if detail else None, kept_args)
