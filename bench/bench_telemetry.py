"""What recording costs a call: help, search, exec and an expand with telemetry off, logged, and logged with OpenTelemetry.

Run: python bench/bench_telemetry.py [--repeat 2000]
The floor is the same gateway with ``call_log=False`` and no listener (nothing
is built); "logged" queues a call-log row (the writer thread commits it
later); "+ otel" adds the OpenTelemetry listener with the SDK's batch span
processor exporting to an in-memory exporter, and an in-memory metric
reader. Medians and p95 in microseconds, measured side by side in one process.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402

PROJECT = "10000000-0000-4000-8000-000000000001"
CALLS = {
    "help onto.task.create": lambda g: g.help("onto.task.create"),
    "search 'move doc'": lambda g: g.search("move doc"),
    "exec onto.task.list": lambda g: g.exec("onto.task.list", {"project_id": PROJECT, "limit": 5}),
    "expand_tool onto.task.create": lambda g: g.discovery.expand_tool("onto.task.create"),
}


def _otel(gateway: Gateway):
    from opentelemetry.sdk.metrics import MeterProvider
    from opentelemetry.sdk.metrics.export import InMemoryMetricReader
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor
    from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

    from opgate.core.telemetry.otel import instrument

    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(BatchSpanProcessor(InMemorySpanExporter()))
    meter_provider = MeterProvider(metric_readers=[InMemoryMetricReader()])
    instrument(gateway, tracer_provider=tracer_provider, meter_provider=meter_provider)
    return tracer_provider, meter_provider


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=2000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        off = Gateway(db_path=Path(folder) / "off.db", call_log=False)
        logged = Gateway(db_path=Path(folder) / "logged.db")
        traced = Gateway(db_path=Path(folder) / "traced.db")
        providers = _otel(traced)
        rows = []
        for name, call in CALLS.items():
            # The three variants one after the other, each after the same warm-up.
            floor = measure(lambda: call(off), repeat=options.repeat, warmup=50)
            with_log = measure(lambda: call(logged), repeat=options.repeat, warmup=50)
            with_otel = measure(lambda: call(traced), repeat=options.repeat, warmup=50)
            rows.append([
                name,
                f"{median(floor) * 1000:.0f}", f"{median(with_log) * 1000:.0f}", f"{median(with_otel) * 1000:.0f}",
                f"{median(with_log) / median(floor):.2f}x", f"{median(with_otel) / median(floor):.2f}x",
                f"{p95(floor) * 1000:.0f}", f"{p95(with_log) * 1000:.0f}",
            ])
        for gateway in (off, logged, traced):
            gateway.close()
        for provider in providers:
            provider.shutdown()
    print_table(
        f"Recording cost per call ({options.repeat} calls each; µs)",
        ["call", "off (floor)", "logged", "logged + otel", "logged / off", "otel / off", "p95 off", "p95 logged"],
        rows,
    )


if __name__ == "__main__":
    main()
