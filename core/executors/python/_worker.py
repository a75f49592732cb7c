"""The handler worker: a separate Python process that imports handlers and runs their ``execute``.

Run as a script (``python _worker.py``), never imported by the gateway, and
kept to the standard library plus :mod:`opgate.tool`, so it starts fast and
a handler's imports and globals never reach the gateway's process.

It reads one JSON request per line on standard input and answers on
standard output with JSON frames: any number of ``log`` frames, then one of
``returned`` (the handler's return value), ``tool_error`` (a raised
``ToolError``), ``failed`` (anything else raised, with the traceback for the
gateway's log) or ``not_json`` (a return value JSON cannot carry). Only the
gateway's reading of these frames decides what they mean.

The handler's own ``print()`` and anything written to file descriptor 1 go
to standard error, which the gateway reads into its log: the protocol
channel is a private copy of the original standard output.
"""

from __future__ import annotations

import asyncio
import faulthandler
import hashlib
import importlib.util
import inspect
import json
import logging
import os
import signal
import sys
import threading
import time
import traceback
from types import MappingProxyType
from typing import Any, BinaryIO

PARENT_CHECK_S = 1.0
# Held here so that a handler which rebinds json.dumps (globals leak within a worker) cannot break the protocol.
_dumps, _loads = json.dumps, json.loads


class _LoadFailed(Exception):
    def __init__(self, message: str, *, line: int | None = None, details: str = ""):
        super().__init__(message)
        self.message = message
        self.line = line
        self.details = details


class _FrameLogHandler(logging.Handler):
    """Sends log records to the gateway, which logs them under the same name."""

    def __init__(self, send):
        super().__init__()
        self._send = send

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
            if record.exc_info:
                message += "\n" + "".join(traceback.format_exception(*record.exc_info))
            self._send({"kind": "log", "name": record.name, "level": record.levelno, "message": message})
        except Exception:  # a record that cannot be formatted must not break the call
            pass


def _read_only(value: Any) -> Any:
    if isinstance(value, dict):
        return MappingProxyType({k: _read_only(v) for k, v in value.items()})
    if isinstance(value, list):
        return tuple(_read_only(v) for v in value)
    return value


class Worker:
    """Answers requests one at a time; handler modules stay imported until their file changes."""

    def __init__(self, out: BinaryIO):
        from opgate.tool import ToolContext, ToolError

        self._context_type = ToolContext
        self._tool_error = ToolError
        self._out = out
        self._send_lock = threading.Lock()
        self._modules: dict[str, tuple[int, Any]] = {}
        self._loop = asyncio.new_event_loop()
        root = logging.getLogger()
        root.handlers[:] = [_FrameLogHandler(self.send)]

    def send(self, frame: dict[str, Any]) -> None:
        data = _dumps(frame, allow_nan=False).encode("utf-8") + b"\n"
        with self._send_lock:
            self._out.write(data)
            self._out.flush()

    def _load(self, path: str) -> Any:
        try:
            changed = os.stat(path).st_mtime_ns
        except OSError as exc:
            raise _LoadFailed(f"cannot read {path}: {exc.strerror or exc}") from None
        cached = self._modules.get(path)
        if cached is not None and cached[0] == changed:
            return cached[1]
        folder = os.path.dirname(path)
        if folder not in sys.path:
            # Modules beside handler.py import as they would when run from the folder.
            sys.path.insert(0, folder)
        name = "opgate_handler_" + hashlib.sha256(path.encode()).hexdigest()[:16]
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise _LoadFailed(f"cannot import {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            spec.loader.exec_module(module)
        except SyntaxError as exc:
            sys.modules.pop(name, None)
            raise _LoadFailed(f"handler.py has a syntax error at line {exc.lineno}: {exc.msg}", line=exc.lineno, details=traceback.format_exc()) from None
        except BaseException as exc:
            sys.modules.pop(name, None)
            raise _LoadFailed(f"importing handler.py raised {type(exc).__name__}", details=traceback.format_exc()) from None
        execute = getattr(module, "execute", None)
        if not callable(execute):
            raise _LoadFailed("handler.py defines no execute(context) function")
        self._modules[path] = (changed, execute)
        return execute

    def _context(self, request: dict[str, Any]) -> Any:
        meta = request.get("meta") or {}
        return self._context_type(
            args=request.get("args") or {},
            session=_read_only(request.get("session") or {}),
            capabilities=_read_only(request.get("capabilities") or {}),
            meta=_read_only(meta),
            dry_run=bool(request.get("dry_run")),
            logger=logging.getLogger(f"opgate.handler.{meta.get('tool_id', 'tool')}"),
        )

    def handle(self, request: dict[str, Any]) -> None:
        logging.getLogger().setLevel(int(request.get("log_level") or logging.WARNING))
        try:
            execute = self._load(str(request["handler"]))
        except _LoadFailed as exc:
            self.send({"kind": "failed", "stage": "import", "message": exc.message, "line": exc.line, "traceback": exc.details})
            return
        try:
            value = execute(self._context(request))
            if inspect.isawaitable(value):
                value = self._loop.run_until_complete(value)
        except self._tool_error as exc:
            self.send({"kind": "tool_error", "error": _jsonable_error(exc.to_error())})
            return
        except BaseException as exc:  # SystemExit too: a handler's sys.exit() must not end the worker
            self.send({"kind": "failed", "stage": "execute", "exception": type(exc).__name__, "traceback": traceback.format_exc()})
            return
        try:
            frame = _dumps({"kind": "returned", "value": value}, allow_nan=False, default=_context_value).encode("utf-8") + b"\n"
        except (TypeError, ValueError, RecursionError) as exc:
            self.send({"kind": "not_json", "message": str(exc)})
            return
        with self._send_lock:
            self._out.write(frame)
            self._out.flush()


def _context_value(value: Any) -> Any:
    """The read-only views of the context go back as the plain objects they show; anything else is not JSON."""
    if isinstance(value, MappingProxyType):
        return dict(value)
    raise TypeError(f"Object of type {type(value).__name__} is not JSON serializable")


def _jsonable_error(error: dict[str, Any]) -> dict[str, Any]:
    try:
        _dumps(error, allow_nan=False)
        return error
    except (TypeError, ValueError):
        return {k: v for k, v in error.items() if k != "details"} | {"details": {"unreadable": "ToolError details were not JSON"}}


def _exit_when_orphaned() -> None:
    """A worker whose gateway died (even by SIGKILL, mid-call) exits instead of lingering."""
    parent = os.getppid()

    def watch() -> None:
        while True:
            time.sleep(PARENT_CHECK_S)
            if os.getppid() != parent:
                os._exit(0)

    threading.Thread(target=watch, name="opgate-parent-watch", daemon=True).start()


def _take_protocol_channel() -> tuple[BinaryIO, BinaryIO]:
    """Private copies of stdin/stdout for the protocol; the handler's stdout goes to stderr, its stdin is empty."""
    channel_in = os.fdopen(os.dup(0), "rb")
    channel_out = os.fdopen(os.dup(1), "wb")
    empty = os.open(os.devnull, os.O_RDONLY)
    os.dup2(empty, 0)
    os.close(empty)
    os.dup2(2, 1)
    sys.stdout.reconfigure(line_buffering=True)
    return channel_in, channel_out


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    # Ctrl-C at the gateway's terminal is the gateway's business; the gateway stops workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    faulthandler.enable()
    channel_in, channel_out = _take_protocol_channel()
    _exit_when_orphaned()
    worker = Worker(channel_out)
    for line in channel_in:
        if not line.strip():
            continue
        worker.handle(_loads(line))


if __name__ == "__main__":
    main()
