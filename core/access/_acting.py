"""The caller a call runs for, carried in a context variable from the front end to the gateway.

A front end that serves several callers (the authenticated HTTP server) sets
it around each call with :func:`acting_as`; the gateway reads it with
:func:`current_caller`. Unset, the gateway acts for its own session with its
own ``allow_write`` and approver, as every single-user front end does.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from ._roles import Caller

_current: ContextVar[Caller | None] = ContextVar("opgate_caller", default=None)


current_caller: Callable[[], Caller | None] = _current.get
"""The caller set by the innermost :func:`acting_as`, or ``None``.

The context variable's own ``get`` rather than a function around it: every
exec asks, and a Python call costs more than the answer.
"""


@contextmanager
def acting_as(caller: Caller | None) -> Iterator[None]:
    """Run the block for ``caller`` (``None``: for nobody in particular)."""
    token = _current.set(caller)
    try:
        yield
    finally:
        _current.reset(token)
