"""Telemetry: what the gateway records about each call, and the hooks that receive it.

Every call a Gateway answers becomes a :class:`CallEvent`, written to the
call log (the workspace database's audit log) and handed to the listeners
registered with :meth:`Gateway.add_listener`. :func:`summarize` reads the
log back (what ``opgate stats`` prints). OpenTelemetry spans and metrics are
a listener in :mod:`opgate.core.telemetry.otel` (the ``otel`` extra); this
package never imports OpenTelemetry itself.
"""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._events import CALL_KINDS, DISCOVERY_KINDS, EVENT_KINDS, LANES, CallEvent
from ._trail import DiscoveryTrail

if _typing.TYPE_CHECKING:
    from ._recorder import Telemetry, calls_made_within, current_call
    from ._stats import CallStats, summarize

# The recorder imports the exec package, whose Session imports the trail from here.
_LAZY = {
    "Telemetry": "._recorder",
    "calls_made_within": "._recorder",
    "current_call": "._recorder",
    "CallStats": "._stats",
    "summarize": "._stats",
}

__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)

__all__ = [
    "CALL_KINDS",
    "CallEvent",
    "CallStats",
    "DISCOVERY_KINDS",
    "DiscoveryTrail",
    "EVENT_KINDS",
    "LANES",
    "Telemetry",
    "calls_made_within",
    "current_call",
    "summarize",
]
