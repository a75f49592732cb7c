"""OpenTelemetry for the gateway: a span per call and call metrics, from its events.

Needs the ``otel`` extra (``pip install 'opgate[otel]'``). Nothing else in
opgate imports OpenTelemetry: this is a listener (see
:meth:`Gateway.add_listener`), and the imports happen when one is made::

    from opgate.core.telemetry.otel import instrument
    stop = instrument(gateway)  # the global tracer and meter providers, or pass your own

Spans: ``opgate.<kind>`` (``opgate.exec``, ``opgate.search``,
``opgate.expand_tool``...), timed as the call was, child of whatever span is
current in the calling thread (the host's agent turn, say), with the op, the
outcome code, the lane, and opgate's own trace, chain and session ids as
attributes; a failed call's span has an error status. Metrics:

- ``opgate.calls`` (counter): calls by kind, op (for calls about one op), code and lane;
- ``opgate.call.duration`` (histogram, ms): the same split;
- ``opgate.lane.typed_tool_schemas`` and ``opgate.lane.total_tool_schemas``
  (histograms): the schemas a hybrid lane offered per turn (seed 003 §6);
- ``opgate.run_tool.validation_failures`` (counter).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ._events import CallEvent

INSTRUMENTATION_NAME = "opgate"


def _missing_extra(exc: ImportError) -> ImportError:
    return ImportError(f"OpenTelemetry is not installed ({exc.name}); install the extra: pip install 'opgate[otel]'")


class OpenTelemetryListener:
    """A gateway listener that turns each :class:`CallEvent` into a span and metric points."""

    def __init__(self, *, tracer_provider: Any = None, meter_provider: Any = None):
        try:
            from opentelemetry import metrics, trace
            from opentelemetry.trace import Status, StatusCode
        except ImportError as exc:
            raise _missing_extra(exc) from None
        self._status, self._error = Status, StatusCode.ERROR
        self._tracer = (tracer_provider or trace.get_tracer_provider()).get_tracer(INSTRUMENTATION_NAME)
        meter = (meter_provider or metrics.get_meter_provider()).get_meter(INSTRUMENTATION_NAME)
        self._calls = meter.create_counter("opgate.calls", unit="{call}", description="Gateway calls answered")
        self._duration = meter.create_histogram("opgate.call.duration", unit="ms", description="Time to answer a gateway call")
        self._typed = meter.create_histogram("opgate.lane.typed_tool_schemas", unit="{schema}", description="Typed op schemas a hybrid lane offered in one turn")
        self._total = meter.create_histogram("opgate.lane.total_tool_schemas", unit="{schema}", description="All tool schemas offered in one hybrid turn")
        self._validation = meter.create_counter("opgate.run_tool.validation_failures", unit="{call}", description="run_tool calls refused for their arguments")

    def __call__(self, event: CallEvent) -> None:
        dimensions = self._dimensions(event)
        self._span(event, dimensions)
        self._calls.add(1, dimensions)
        self._duration.record(event.duration_ms, dimensions)
        if event.kind == "lane":
            self._typed.record(int(event.detail.get("typed", 0)))
            self._total.record(int(event.detail.get("total", 0)))
        if event.kind == "run_tool" and event.detail.get("validation_failure"):
            self._validation.add(1, {"opgate.op": dimensions["opgate.op"]} if "opgate.op" in dimensions else {})

    @staticmethod
    def _dimensions(event: CallEvent) -> dict[str, str]:
        """Low-cardinality attributes: an op only when the call is about a real one.

        Never a search's words, and never a name a caller made up (a failed
        call whose op did not resolve), so a client cannot grow the metric
        series without bound; the span keeps the name as its subject.
        """
        dimensions = {"opgate.kind": event.kind, "opgate.code": "ok" if event.ok else (event.code or "ERROR")}
        if event.op and (event.ok or event.tool_name):
            dimensions["opgate.op"] = event.op
        if event.lane:
            dimensions["opgate.lane"] = event.lane
        return dimensions

    def _span(self, event: CallEvent, dimensions: dict[str, str]) -> None:
        start_ns = int(event.started_at * 1e9)
        attributes: dict[str, Any] = {
            **dimensions,
            "opgate.subject": event.subject,
            "opgate.trace_id": event.trace_id,
            "opgate.session_id": event.session_id,
            "opgate.actor": event.actor,
            "opgate.dry_run": event.dry_run,
        }
        for name, value in (("opgate.chain_id", event.chain_id), ("opgate.parent_id", event.parent_id), ("opgate.tool_name", event.tool_name)):
            if value:
                attributes[name] = value
        for name, value in event.detail.items():
            if isinstance(value, (bool, int, float, str)):
                attributes[f"opgate.detail.{name}"] = value
        span = self._tracer.start_span(f"opgate.{event.kind}", start_time=start_ns, attributes=attributes)
        if not event.ok:
            span.set_status(self._status(self._error, event.code or "ERROR"))
        span.end(end_time=start_ns + int(event.duration_ms * 1e6))


def instrument(gateway: Any, *, tracer_provider: Any = None, meter_provider: Any = None) -> Callable[[], None]:
    """Send the gateway's calls to OpenTelemetry; returns a function that stops it."""
    return gateway.add_listener(OpenTelemetryListener(tracer_provider=tracer_provider, meter_provider=meter_provider))


__all__ = ["INSTRUMENTATION_NAME", "OpenTelemetryListener", "instrument"]
