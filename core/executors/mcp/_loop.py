"""One asyncio event loop, in one background thread, for every upstream of a gateway.

The SDK is async and its context managers (a stdio subprocess, an HTTP
client, a ``ClientSession``) must be entered and exited in the same task. The
gateway's callers are threads (the CLI, the REPL, the explorer's workers, the
MCP server's worker threads), so each upstream keeps one long-lived task on
this loop, and callers hand it coroutines with :meth:`LoopThread.submit`.
The thread starts on the first submit, never at construction.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from concurrent.futures import Future
from typing import Any, TypeVar

T = TypeVar("T")


class LoopThread:
    """A lazily started event loop thread; :meth:`stop` ends it after the work on it is done."""

    def __init__(self, name: str = "opgate-upstreams"):
        self._name = name
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()

    def in_loop(self) -> bool:
        """Whether the caller runs on this loop's thread (where blocking on it would deadlock)."""
        return self._thread is not None and threading.current_thread() is self._thread

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop, started if it was not yet."""
        return self._started()

    def submit(self, coroutine: Coroutine[Any, Any, T]) -> Future[T]:
        return asyncio.run_coroutine_threadsafe(coroutine, self._started())

    def _started(self) -> asyncio.AbstractEventLoop:
        with self._lock:
            if self._loop is None:
                loop = asyncio.new_event_loop()
                ready = threading.Event()
                self._thread = threading.Thread(target=self._run, args=(loop, ready), name=self._name, daemon=True)
                self._thread.start()
                ready.wait()
                self._loop = loop
            return self._loop

    @staticmethod
    def _run(loop: asyncio.AbstractEventLoop, ready: threading.Event) -> None:
        asyncio.set_event_loop(loop)
        loop.call_soon(ready.set)
        try:
            loop.run_forever()
        finally:
            loop.run_until_complete(loop.shutdown_asyncgens())
            loop.close()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop the loop (callers first close what runs on it) and join its thread."""
        with self._lock:
            loop, thread = self._loop, self._thread
            self._loop = self._thread = None
        if loop is None or thread is None:
            return
        loop.call_soon_threadsafe(loop.stop)
        if threading.current_thread() is not thread:
            thread.join(timeout)
