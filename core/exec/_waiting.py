"""Time a call spends waiting for a person (a confirmation, an answer to a question).

That time is the person's, not the op's: latency, the latency budget warning
and the call log's duration leave it out, and the envelope reports it on its
own as ``meta.waited_ms``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any


class PersonWait:
    """Adds up the seconds spent inside the callables it wraps (one per exec call)."""

    _lock = threading.Lock()  # one for every call: waiting for a person is rare, and adding up is quick

    def __init__(self) -> None:
        self.seconds = 0.0

    def around(self, fn: Callable[..., Any], *args: Any) -> Any:
        started = time.perf_counter()
        try:
            return fn(*args)
        finally:
            with self._lock:
                self.seconds += time.perf_counter() - started

    def wrap(self, fn: Callable[..., Any] | None) -> Callable[..., Any] | None:
        if fn is None:
            return None
        return lambda *args: self.around(fn, *args)


# The wait of a call that has neither an approver nor an asker: nothing can call ``around`` on it,
# so its seconds stay 0.0 and one instance serves every such call.
NO_WAIT = PersonWait()
