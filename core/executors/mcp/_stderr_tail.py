"""The last lines a stdio server wrote to its stderr, kept to say why it failed to start or died.

A server that exits at once (its script missing, a bad flag) tells the SDK only
"Connection closed"; the cause is in its stderr ("Cannot find module ...").
Its stderr is read through a pipe, every chunk still goes to the sink
(``OPGATE_UPSTREAM_STDERR`` or nowhere), and the last few kilobytes are
kept. What is quoted is bounded, and control characters are escaped: a
server's output must not move a terminal's cursor or forge lines of our own.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import TextIO

_KEPT_BYTES = 4096
_QUOTED_LINES = 12
_QUOTED_CHARS = 800


class StderrTail:
    """The end of one server process's stderr; every chunk is also written to ``sink``."""

    def __init__(self, sink: TextIO):
        self._sink = sink
        self._kept = b""
        self._ended = asyncio.Event()  # made on the upstream loop, where the server's stderr is read

    def end(self) -> None:
        """The process's stderr closed: everything it wrote is here."""
        self._ended.set()

    async def settled(self, timeout: float) -> None:
        """Wait (at most ``timeout``) for the stderr of a process that died to be read to its end: its last words come after."""
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._ended.wait(), timeout)

    def feed(self, chunk: bytes) -> None:
        self._kept = (self._kept + chunk)[-_KEPT_BYTES:]
        try:
            self._sink.write(chunk.decode("utf-8", "replace"))
            self._sink.flush()
        except (OSError, ValueError):  # a full disk or a closed sink must not stop the reading (a full pipe blocks the server)
            pass

    def quoted(self) -> str:
        """The last non-blank lines, joined with " | ", control characters escaped; "" when it wrote nothing."""
        lines = [_printable(line.strip()) for line in self._kept.decode("utf-8", "replace").splitlines() if line.strip()]
        text = " | ".join(lines[-_QUOTED_LINES:])
        return text if len(text) <= _QUOTED_CHARS else "..." + text[-_QUOTED_CHARS:]


def _printable(line: str) -> str:
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in line)
