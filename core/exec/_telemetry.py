"""The call log: one entry per gateway call, kept in the workspace database.

Every call is logged (help, search, the discovery steps, the hybrid lane;
see :mod:`opgate.core.telemetry`); the explorer's history reads back the
exec entries. Writing an entry must never cost the
call itself a write transaction (a read would otherwise queue for the write
lock behind every other process), so :meth:`CallLog.record` only queues the
entry; a writer thread commits the queue in one transaction every
``call_log_flush_s`` (0.25 s) or once ``call_log_flush_entries`` wait, through
the store's ``log_calls`` (on PostgreSQL without the store's write lock, so it
never queues behind a create; an SQLite file has one write lock for all). The
queue is written out by :meth:`CallLog.flush`, which :meth:`CallLog.recent`
calls first (a caller sees its own calls), by :meth:`CallLog.close` and, for
logs nobody closed, when the process exits (``atexit``: a normal exit,
``sys.exit`` or an uncaught exception; ``opgate serve --http`` closes
its gateways at the end of the graceful shutdown SIGTERM starts, since
uvicorn then ends the process by raising that signal again). A process killed outright (SIGKILL, or a signal Python leaves at
its default) runs no code, so it loses what it had queued and not yet
written: at most the last ``call_log_flush_s`` of calls (or the last
``call_log_flush_entries``) and, if the database could not take them, the
queue that waited for it. A dry-run's entry is written
after its rollback, so it is never lost with it; a logging failure is
reported to the log, never to the caller.

What an entry keeps is bounded, because any client that can call (even one
without write access, whose calls are refused) can make it grow: the digest of
the whole arguments, and a copy of at most ``call_log_args_chars`` (4 KB) of
them, with ``args_truncated`` set when it was cut. Entries older than
``call_log_keep_days`` (30) or beyond the newest ``call_log_keep_rows``
(100,000) are swept by the first write of each process and then at most every
:data:`SWEEP_EVERY_S` seconds.
"""

from __future__ import annotations

import atexit
import os
import threading
import time
import weakref
from collections.abc import Callable
from typing import Any

from .._log import LazyLogger
from ..settings import GatewaySettings
from ._call_log_args import ArgsLater, args_columns, exec_row, json_safe_numbers, plainly_writable

log = LazyLogger("opgate.telemetry")  # logging loads on the first line logged

SWEEP_EVERY_S = 600.0
"""Seconds between two sweeps of old entries by one process."""
PENDING_LIMIT = 10_000
"""Entries the queue holds while the database cannot take them; older ones are dropped past it."""
_STAMP = "%Y-%m-%dT%H:%M:%SZ"


_last_stamp: tuple[int, str] = (0, "")


def now_stamp() -> str:
    """Now, as the log stamps its entries (UTC, to the second); formatted once per second, every call needs it twice."""
    global _last_stamp
    second = int(time.time())
    if _last_stamp[0] != second:
        _last_stamp = (second, time.strftime(_STAMP, time.gmtime(second)))
    return _last_stamp[1]


CANCELLED = "CANCELLED"
"""The call log's code for a call the person declined to confirm: nothing was written, nothing failed."""


def outcome_code(envelope: dict[str, Any]) -> str | None:
    if envelope.get("ok"):
        return None
    error = envelope["error"]
    # The envelope keeps PERMISSION_DENIED (an agent's five codes); the log tells a "no" from a refusal.
    return CANCELLED if (error.get("details") or {}).get("cancelled") else error["code"]


_OPEN: weakref.WeakSet[CallLog] = weakref.WeakSet()
_hooks_installed = False
_hooks_lock = threading.Lock()


def _install_process_hooks() -> None:
    """Once per process: close every open log at exit, and forget a parent's queue after fork."""
    global _hooks_installed
    with _hooks_lock:
        if _hooks_installed:
            return
        atexit.register(_close_all)
        if hasattr(os, "register_at_fork"):
            os.register_at_fork(after_in_child=_reset_all_after_fork)
        _hooks_installed = True


def _close_all() -> None:
    for call_log in list(_OPEN):
        call_log.close()


def _reset_all_after_fork() -> None:
    for call_log in list(_OPEN):
        call_log._reset_after_fork()


class CallLog:
    """Queues call-log entries and writes them in batches; ``enabled=False`` keeps nothing."""

    def __init__(self, store_provider: Callable[[], Any] | None, *, enabled: bool = True, settings: GatewaySettings | None = None, location: Callable[[], str] | None = None):
        self._store = store_provider
        # Where the store is, known without opening it: queueing an entry must not open the
        # workspace in the caller's thread (help and search never needed it before).
        self._location = location
        self.enabled = enabled and store_provider is not None
        self._settings = settings or GatewaySettings()
        self._in_memory: bool | None = None
        self._reset_after_fork()
        self._last_sweep: float | None = None
        if self.enabled:
            _install_process_hooks()
            _OPEN.add(self)

    def _reset_after_fork(self) -> None:
        # In a forked child the parent's queue is the parent's to write, and its locks may be held.
        self._pending: list[dict[str, Any] | ArgsLater | tuple[Any, ...]] = []
        self._wake = threading.Condition()
        self._writing = threading.Lock()
        self._writer: threading.Thread | None = None
        self._closed = False
        self._failing = False

    def entry(self, envelope: dict[str, Any], *, record: Any, call: Any, session: Any, requested: Any, args: Any, started: float,
              dry_run: bool | None = None, waited_s: float = 0.0) -> dict[str, Any]:
        meta = envelope.get("meta") or {}
        return {
            "ts": now_stamp(),
            "trace_id": meta.get("trace_id", ""),
            "op": envelope.get("op") or (requested if isinstance(requested, str) else ""),
            "tool_name": record.tool_name if record else "",
            # The person's time (confirmation, questions) is not the call's.
            "duration_ms": round((time.perf_counter() - started - waited_s) * 1000, 3),
            "ok": bool(envelope.get("ok")),
            "code": outcome_code(envelope),
            "dry_run": bool(getattr(call, "dry_run", False) if dry_run is None else dry_run),
            "caller": getattr(session, "caller", ""),
            **self.args_columns(args),
        }

    def args_columns(self, args: Any) -> dict[str, Any]:
        """The entry's columns for the call's arguments: the digest of the whole, and a bounded copy that can be written."""
        return args_columns(args, self._settings.call_log_args_chars)

    def with_args(self, row: dict[str, Any], args: Any) -> Any:
        """The entry to :meth:`append`: ``row``'s columns and those of ``args``, made now or when written (see :class:`ArgsLater`).

        Whatever could fail is done now, so that a failure still stops the
        entry where the caller can say so.
        """
        if plainly_writable(args) and json_safe_numbers(args):
            return ArgsLater(row, dict(args))
        return {**self.args_columns(args), **row}

    def record(self, envelope: dict[str, Any], **context: Any) -> None:
        """Queue an exec's entry; the writer thread commits it within ``call_log_flush_s``."""
        if not self.enabled:
            return
        try:
            entry = self.entry(envelope, **context)
        except Exception:
            log.warning("could not make the call log entry", exc_info=True)
            return
        self.append(entry)

    def append(self, entry: dict[str, Any] | ArgsLater | tuple[Any, ...]) -> None:
        """Queue one entry (call-log columns, :meth:`with_args`'s, or an exec's values, see ``exec_row``); the writer thread commits it within ``call_log_flush_s``."""
        if not self.enabled:
            return
        wake = self._wake
        # The condition's own lock, taken directly: ``with wake`` costs two Python calls on every call.
        wake.acquire()
        try:
            pending = self._pending
            pending.append(entry)
            if len(pending) > PENDING_LIMIT:
                self._queue([])  # drops the oldest, and says so
            at_once = self._closed or (self._in_memory if self._in_memory is not None else self._per_thread_database())
            if not at_once:
                if self._writer is None:
                    self._start_writer()
                # The first entry of a batch wakes a writer asleep on an empty queue; a full batch, one waiting out its window.
                # Only the entry that fills the batch: the woken writer may wait for the interpreter's lock for milliseconds,
                # and notifying on every entry meanwhile cost each of them a Python call. (A writer that is not waiting
                # sees the full queue when it next looks.)
                queued = len(pending)
                if queued == 1 or queued == self._settings.call_log_flush_entries:
                    wake.notify()
        finally:
            wake.release()
        if at_once:  # after close() nothing comes back for it; see _per_thread_database
            self.flush()

    def flush(self) -> None:
        """Write every queued entry now, in one transaction (entries stay in call order)."""
        if not self.enabled:
            return
        with self._writing:
            with self._wake:
                batch, self._pending = self._pending, []
            if batch:
                self._write(self._completed(batch))

    def close(self) -> None:
        """Stop the writer thread and write what is queued. Later records are written at once."""
        if not self.enabled:
            return
        with self._wake:
            self._closed = True
            self._wake.notify_all()
            writer, self._writer = self._writer, None
        if writer is not None and writer is not threading.current_thread():
            writer.join()
        with self._writing:
            with self._wake:
                batch, self._pending = self._pending, []
            if batch:
                self._write(self._completed(batch), last=True)
        _OPEN.discard(self)

    def recent(self, limit: int = 50, **filters: Any) -> list[dict[str, Any]]:
        """The newest exec entries (``kind=None``: every kind), this log's queue written first."""
        if not self.enabled:
            return []
        self.flush()
        with self._store().read() as tx:
            return tx.recent_calls(limit, **filters)

    def since(self, since: str | None = None, *, limit: int = 100_000) -> list[dict[str, Any]]:
        """Entries of every kind from ``since`` on, oldest first, this log's queue written first."""
        if not self.enabled:
            return []
        self.flush()
        with self._store().read() as tx:
            return tx.calls_since(since, limit=limit)

    # -- the writer ---------------------------------------------------------

    def _queue(self, entries: list[dict[str, Any]]) -> None:
        self._pending.extend(entries)
        excess = len(self._pending) - PENDING_LIMIT
        if excess > 0:
            del self._pending[:excess]
            log.warning("the call log could not keep up; dropped its %d oldest queued entries", excess)

    def _completed(self, batch: list[dict[str, Any] | ArgsLater | tuple[Any, ...]]) -> list[dict[str, Any]]:
        """The batch with every entry's argument columns made (see ``exec_row`` and :class:`ArgsLater`)."""
        chars = self._settings.call_log_args_chars
        entries: list[Any] = []
        keep = entries.append
        # One pass, no test of the whole batch first: nearly every entry is an exec's tuple.
        for entry in batch:
            kind = type(entry)
            if kind is tuple:  # an exec's values and its arguments (see exec_row)
                try:
                    entry = exec_row(entry, chars)
                except Exception:
                    log.warning("could not make the call log entry", exc_info=True)
                    continue
            elif kind is ArgsLater:
                try:
                    entry = entry.entry(chars)
                except Exception:  # as when the entry was made at call time: reported, and that entry alone is left out
                    log.warning("could not make the call log entry", exc_info=True)
                    continue
            keep(entry)
        return entries

    def _per_thread_database(self) -> bool:
        # Each thread's connection to ":memory:" is a database of its own: a
        # writer thread would log into an empty one, so such a store logs in the caller's thread.
        # A log's workspace never moves, so this is asked once (every call would ask it).
        if self._in_memory is None:
            location = self._location() if self._location is not None else getattr(self._store(), "location", None)
            self._in_memory = str(location) == ":memory:"
        return self._in_memory

    def _start_writer(self) -> None:
        if self._writer is None:
            self._writer = threading.Thread(target=self._run_writer, name="opgate-call-log", daemon=True)
            self._writer.start()

    def _run_writer(self) -> None:
        settings = self._settings
        while True:
            with self._wake:
                while not self._pending and not self._closed:
                    self._wake.wait()
                deadline = time.monotonic() + settings.call_log_flush_s
                while not self._closed and len(self._pending) < settings.call_log_flush_entries:
                    left = deadline - time.monotonic()
                    if left <= 0:
                        break
                    self._wake.wait(left)
                if self._closed:
                    return  # close() writes what is left
            self.flush()

    def _write(self, batch: list[dict[str, Any]], *, last: bool = False) -> None:
        """Write ``batch``; on failure queue it again for the next write, or (``last``: close's write, none follows) say it is lost."""
        try:
            sweep = (self._oldest_kept(), self._settings.call_log_keep_rows) if self._sweep_due() else None
            self._store().log_calls(batch, sweep=sweep)
            if sweep is not None:
                self._last_sweep = time.monotonic()
            self._failing = False
        except Exception as exc:
            if last:
                # Queued again, they would be dropped unseen when the process ends, after a warning that they wait.
                log.warning("could not write %d call log entries as the log closed; they are lost (%s: %s)", len(batch), type(exc).__name__, exc)
                return
            if not self._failing:
                log.warning("could not write %d call log entries; they wait for the next write", len(batch), exc_info=True)
            self._failing = True
            with self._wake:
                self._pending[:0] = batch
                self._queue([])

    def _sweep_due(self) -> bool:
        return self._last_sweep is None or time.monotonic() - self._last_sweep >= SWEEP_EVERY_S

    def _oldest_kept(self) -> str:
        from datetime import (  # only a sweep needs it, and help and search never sweep
            datetime,
            timedelta,
            timezone,
        )

        return (datetime.now(timezone.utc) - timedelta(days=self._settings.call_log_keep_days)).strftime(_STAMP)
