"""Progress of a running call, passed on to whoever made it; and its caller giving up on it.

An upstream tool may say how far it has come (MCP ``notifications/progress``).
A front end that can show it (``opgate serve``, for a client that sent a
``progressToken``) sets a reporter around the call with
:func:`reporting_progress`; an executor reads it, in the caller's thread, with
:func:`progress_reporter`, and calls it from that same thread. Without a
reporter nothing is asked of the upstream.
"""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from contextvars import ContextVar

ProgressReporter = Callable[[float, "float | None", "str | None"], None]
"""``report(progress, total, message)``: called in the caller's thread, each progress larger than the last."""

_reporter: ContextVar[ProgressReporter | None] = ContextVar("opgate_progress_reporter", default=None)


@contextmanager
def reporting_progress(report: ProgressReporter | None) -> Iterator[None]:
    """Calls made inside report their progress to ``report`` (nothing changes when it is None)."""
    token = _reporter.set(report)
    try:
        yield
    finally:
        _reporter.reset(token)


def progress_reporter() -> ProgressReporter | None:
    """The reporter of the call running in this thread, if its front end asked for progress."""
    return _reporter.get()


def increasing(report: ProgressReporter) -> ProgressReporter:
    """``report`` given only progress that grows, as MCP requires of one token (an upstream may repeat or go back).

    Safe from several threads at once (a batch's read steps share their
    batch's token): the check and the report are made under one lock, so
    two steps cannot send out of order.
    """
    last: list[float] = []
    lock = threading.Lock()

    def forward(progress: float, total: float | None, message: str | None) -> None:
        if not math.isfinite(progress):  # JSON has no word for it (it went out as null), and NaN beat every later check
            return
        if total is not None and not math.isfinite(total):
            total = None
        with lock:
            if last and progress <= last[0]:
                return
            last[:] = [progress]
            report(progress, total, message)

    return forward


_abandoned: ContextVar[threading.Event | None] = ContextVar("opgate_call_abandoned", default=None)


@contextmanager
def abandonable(event: threading.Event | None) -> Iterator[None]:
    """Calls made inside stop when ``event`` is set (the caller cancelled): an upstream request is cancelled too."""
    token = _abandoned.set(event)
    try:
        yield
    finally:
        _abandoned.reset(token)


def abandoned_event() -> threading.Event | None:
    """The event that says the caller of the call running in this thread gave up, if its front end can tell."""
    return _abandoned.get()


def carried() -> Callable[[], AbstractContextManager[None]]:
    """What the running call's front end asked (its progress reporter, its abandonment event), to set again in another thread.

    A batch runs its read steps on pool threads, which do not inherit the
    caller's context: without this their upstream calls reported no
    progress and ran on after the client cancelled the batch.
    """
    report, event = _reporter.get(), _abandoned.get()

    @contextmanager
    def again() -> Iterator[None]:
        with reporting_progress(report), abandonable(event):
            yield

    return again
