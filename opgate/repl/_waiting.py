"""A word while a call takes long, so a silent prompt does not look hung.

The explorer's top bar says ``running OP…`` for as long as a call runs; the
REPL printed nothing until the answer came, so a ten-second upstream call
looked like a frozen terminal. A line is printed only when the call is
still running after :data:`NOTICE_AFTER_S`, so quick calls stay as quiet as
before; the lock keeps that line from landing after the answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

NOTICE_AFTER_S = 1.0


@contextmanager
def said_if_slow(say: Callable[[], None], after: float = NOTICE_AFTER_S) -> Iterator[None]:
    """Run the body; call ``say`` (from a timer thread) if it is still running ``after`` seconds on."""
    lock = threading.Lock()
    done = False

    def notice() -> None:
        with lock:
            if not done:
                say()

    timer = threading.Timer(after, notice)
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        with lock:
            done = True
        timer.cancel()
