"""One handler worker as the gateway sees it: a child process, its frames, and how to stop it."""

from __future__ import annotations

import json
import logging
import os
import selectors
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .._base import MAX_ANSWER_BYTES

WORKER_SCRIPT = Path(__file__).with_name("_worker.py")
_GONE = object()
# How long a reader thread may take to notice its pipe closed, once the process is dead.
_JOIN_S = 2.0

log = logging.getLogger("opgate.handler")


class WorkerTimedOut(Exception):
    """The call did not answer before its deadline (the worker must be stopped)."""


class WorkerCancelled(Exception):
    """The call's caller gave up before the answer (the worker must be stopped)."""


_CANCEL_POLL_S = 0.1  # how often a call whose caller can give up looks whether it has


class WorkerAnsweredTooMuch(Exception):
    """The worker's answer passed :data:`MAX_ANSWER_BYTES` before it ended (the worker must be stopped)."""

    def __init__(self, size: int):
        super().__init__(size)
        self.size = size


class WorkerGone(Exception):
    """The worker process ended while a call was running (a crash, ``os._exit``, a signal)."""

    def __init__(self, how: str):
        super().__init__(how)
        self.how = how


def _describe_exit(code: int | None) -> str:
    if code is None:
        return "stopped answering"
    if code < 0:
        try:
            return f"was killed by {signal.Signals(-code).name}"
        except ValueError:
            return f"was killed by signal {-code}"
    return f"exited with code {code}"


class WorkerProcess:
    """A fresh interpreter running ``_worker.py``: never a fork of the gateway, whatever threads it has."""

    def __init__(self, script: Path = WORKER_SCRIPT):
        self.process = subprocess.Popen(
            [sys.executable, str(script)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, close_fds=True,
        )
        self._pending = b""
        self._ended = False
        self._closed = False
        # Held while a call reads the pipes: stop() from another thread kills the process and lets
        # that call end on the EOF, instead of closing a descriptor the call is still reading.
        self._calling = threading.Lock()
        # Frames are read by the calling thread itself (one wake-up per answer, not two); only the
        # handler's output, which can arrive at any time, has a thread of its own.
        self._selector = selectors.DefaultSelector()
        self._selector.register(self.process.stdout, selectors.EVENT_READ)
        self._readers = [threading.Thread(target=self._read_output, name=f"opgate-worker-{self.pid}-output", daemon=True)]
        for reader in self._readers:
            reader.start()

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def alive(self) -> bool:
        return self.process.poll() is None

    def _readable(self, deadline: float, abandoned: threading.Event | None) -> bool:
        """Wait until the worker writes, up to ``deadline``; False at the deadline. Raises WorkerCancelled once ``abandoned`` is set."""
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            if abandoned is None:
                return bool(self._selector.select(remaining))
            if abandoned.is_set():
                raise WorkerCancelled()
            if self._selector.select(min(remaining, _CANCEL_POLL_S)):
                return True

    def _next_line(self, deadline: float, abandoned: threading.Event | None = None) -> bytes | None:
        """The next line from the worker; ``None`` once it has ended. Raises WorkerTimedOut at the deadline.

        A long line's chunks are kept in a list and joined once, and only each new chunk is searched for the
        newline: joining each chunk onto the line so far made a 50 MB answer take longer than the call's 30 s.
        A line past :data:`MAX_ANSWER_BYTES` is not read (WorkerAnsweredTooMuch; the worker is then stopped).
        """
        newline = self._pending.find(b"\n")
        if newline >= 0:
            line, self._pending = self._pending[:newline], self._pending[newline + 1 :]
            return line
        parts, size = ([self._pending] if self._pending else []), len(self._pending)
        self._pending = b""
        while True:
            if self._ended:
                return b"".join(parts) if parts else None
            try:
                readable = self._readable(deadline, abandoned)
            except WorkerCancelled:
                self._pending = b"".join(parts)
                raise
            if not readable:
                self._pending = b"".join(parts)
                raise WorkerTimedOut()
            chunk = os.read(self.process.stdout.fileno(), 1 << 16)
            if not chunk:
                self._ended = True
                continue
            newline = chunk.find(b"\n")
            if newline >= 0:
                parts.append(chunk[:newline])
                self._pending = chunk[newline + 1 :]
                return b"".join(parts)
            parts.append(chunk)
            size += len(chunk)
            if size > MAX_ANSWER_BYTES:
                raise WorkerAnsweredTooMuch(size)

    def _next_frame(self, deadline: float, abandoned: threading.Event | None = None) -> Any:
        while True:
            line = self._next_line(deadline, abandoned)
            if line is None:
                return _GONE
            try:
                frame = json.loads(line)
            except ValueError:
                log.info("worker %s: %s", self.pid, line.decode("utf-8", "replace").rstrip())
                continue
            if isinstance(frame, dict):
                return frame

    def _read_output(self) -> None:
        # The handler's print() and stderr, and a crash report from faulthandler, belong in the log.
        for line in self.process.stderr:
            log.info("worker %s: %s", self.pid, line.decode("utf-8", "replace").rstrip())

    def call(self, request: bytes, deadline: float, on_log: Callable[[dict[str, Any]], None], abandoned: threading.Event | None = None) -> dict[str, Any]:
        """Send one request (a line of JSON); return the worker's answer frame (``log`` frames go to ``on_log``).

        ``abandoned``, once set, ends the wait with WorkerCancelled (the caller gave up; the worker must be stopped).
        """
        with self._calling:
            if self._closed:
                raise WorkerGone("was stopped")
            try:
                self.process.stdin.write(request)
                self.process.stdin.flush()
                while True:
                    frame = self._next_frame(deadline, abandoned)
                    if frame is _GONE:
                        break
                    if frame.get("kind") != "log":
                        return frame
                    on_log(frame)
            except (OSError, ValueError):  # a broken pipe: the worker is gone
                pass
        raise WorkerGone(self._exit_story())

    def _exit_story(self) -> str:
        try:
            code = self.process.wait(timeout=_JOIN_S)
        except subprocess.TimeoutExpired:
            code = None
        return _describe_exit(code)

    def stop(self) -> None:
        """Kill the process, reap it, and let its reader threads finish: no zombie, no open pipe."""
        if self.process.poll() is None:
            self.process.kill()
        try:
            self.process.wait(timeout=_JOIN_S * 5)
        except subprocess.TimeoutExpired:  # pragma: no cover - SIGKILL is not refused
            log.warning("worker %s did not stop after SIGKILL", self.pid)
        for reader in self._readers:
            if reader is not threading.current_thread():
                reader.join(timeout=_JOIN_S)
        if not self._calling.acquire(timeout=_JOIN_S):  # pragma: no cover - a killed worker's call ends at once
            return  # the call still running closes nothing; the pool stops this worker again after it
        try:
            if not self._closed:
                self._closed = True
                self._selector.close()
                for pipe in (self.process.stdin, self.process.stdout, self.process.stderr):
                    try:
                        pipe.close()
                    except OSError:
                        pass
        finally:
            self._calling.release()
