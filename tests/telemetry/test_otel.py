"""OpenTelemetry through the listener API, checked with the real SDK's in-memory exporter and metric reader."""

from __future__ import annotations

import subprocess
import sys

import pytest
from opentelemetry import trace
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import InMemoryMetricReader
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import StatusCode

from opgate.core import Gateway
from opgate.core.modes import ToolRouter, mode_tools
from opgate.core.telemetry.otel import instrument

PROJECT = "10000000-0000-4000-8000-000000000001"


@pytest.fixture
def otel(tmp_path):
    exporter = InMemorySpanExporter()
    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(SimpleSpanProcessor(exporter))
    reader = InMemoryMetricReader()
    meter_provider = MeterProvider(metric_readers=[reader])
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True)
    stop = instrument(gateway, tracer_provider=tracer_provider, meter_provider=meter_provider)
    yield gateway, exporter, reader, tracer_provider, stop
    gateway.close()
    meter_provider.shutdown()
    tracer_provider.shutdown()


def _points(reader: InMemoryMetricReader) -> dict[str, list]:
    found: dict[str, list] = {}
    for resource in reader.get_metrics_data().resource_metrics:
        for scope in resource.scope_metrics:
            for metric in scope.metrics:
                found.setdefault(metric.name, []).extend(metric.data.data_points)
    return found


def test_each_call_is_a_span_with_its_outcome_and_ids(otel):
    gateway, exporter, _, _, _ = otel
    gateway.search("move doc")
    gateway.help("onto.document.tree.move")
    answer = gateway.exec("onto.document.tree.move", {"project_id": PROJECT})
    spans = exporter.get_finished_spans()
    assert [s.name for s in spans] == ["opgate.search", "opgate.help", "opgate.exec"]
    search, help_, exec_ = spans
    assert exec_.status.status_code is StatusCode.ERROR and exec_.status.description == "VALIDATION_ERROR"
    assert search.status.status_code is StatusCode.UNSET
    assert exec_.attributes["opgate.op"] == "onto.document.tree.move" and exec_.attributes["opgate.code"] == "VALIDATION_ERROR"
    assert exec_.attributes["opgate.trace_id"] == answer["meta"]["trace_id"]
    assert exec_.attributes["opgate.chain_id"] == help_.attributes["opgate.chain_id"] == search.attributes["opgate.trace_id"]
    assert "opgate.op" not in search.attributes and search.attributes["opgate.subject"] == "move doc"
    assert all(s.end_time >= s.start_time for s in spans) and exec_.start_time >= search.start_time


def test_spans_are_children_of_the_hosts_current_span(otel):
    gateway, exporter, _, tracer_provider, _ = otel
    with tracer_provider.get_tracer("host").start_as_current_span("agent turn") as turn:
        gateway.exec("onto.task.list", {"limit": 1})
    exec_span = next(s for s in exporter.get_finished_spans() if s.name == "opgate.exec")
    assert exec_span.parent is not None and exec_span.parent.span_id == turn.get_span_context().span_id
    assert exec_span.context.trace_id == turn.get_span_context().trace_id


def test_metrics_count_calls_by_op_and_code_and_time_them(otel):
    gateway, _, reader, _, _ = otel
    for _ in range(3):
        gateway.exec("onto.task.list", {"limit": 1})
    gateway.exec("onto.task.list", {"limit": "many"})
    points = _points(reader)
    calls = {(p.attributes["opgate.op"], p.attributes["opgate.code"]): p.value for p in points["opgate.calls"] if p.attributes.get("opgate.op")}
    assert calls == {("onto.task.list", "ok"): 3, ("onto.task.list", "VALIDATION_ERROR"): 1}
    durations = [p for p in points["opgate.call.duration"] if p.attributes.get("opgate.code") == "ok"]
    assert durations[0].count == 3 and durations[0].sum > 0


def test_a_made_up_op_name_never_becomes_a_metric_series(otel):
    gateway, exporter, reader, _, _ = otel
    for n in range(5):
        gateway.exec(f"onto.invented.{n}", {})
    series = {p.attributes.get("opgate.op") for p in _points(reader)["opgate.calls"]}
    assert series == {None}
    assert {s.attributes["opgate.subject"] for s in exporter.get_finished_spans()} == {f"onto.invented.{n}" for n in range(5)}


def test_lane_schema_counts_and_run_tool_failures_are_metrics(otel):
    gateway, exporter, reader, _, _ = otel
    router = ToolRouter(gateway)
    tools = mode_tools(gateway, "hybrid", router=router, turn="list my tasks")
    router.call("run_tool", {"name": "onto.task.create", "arguments": {}})
    points = _points(reader)
    typed = points["opgate.lane.typed_tool_schemas"][0]
    total = points["opgate.lane.total_tool_schemas"][0]
    assert (typed.count, typed.sum) == (1, len(tools) - 2) and total.sum == len(tools)
    assert [p.value for p in points["opgate.run_tool.validation_failures"]] == [1]
    run_span = next(s for s in exporter.get_finished_spans() if s.name == "opgate.run_tool")
    assert run_span.attributes["opgate.lane"] == "generic" and run_span.attributes["opgate.detail.validation_failure"] is True


def test_stopping_removes_the_listener(otel):
    gateway, exporter, _, _, stop = otel
    gateway.help("")
    stop()
    gateway.help("onto")
    assert len(exporter.get_finished_spans()) == 1


def test_an_exporter_that_fails_never_breaks_a_call(tmp_path):
    class Broken(SimpleSpanProcessor):
        def on_end(self, span):
            raise RuntimeError("collector down")

    tracer_provider = TracerProvider()
    tracer_provider.add_span_processor(Broken(InMemorySpanExporter()))
    gateway = Gateway(db_path=tmp_path / "ws.db")
    instrument(gateway, tracer_provider=tracer_provider, meter_provider=MeterProvider())
    try:
        assert gateway.exec("onto.task.list", {"limit": 1})["ok"]
    finally:
        gateway.close()


def test_the_core_never_imports_opentelemetry_unless_asked():
    code = (
        "import sys\n"
        "from opgate.core import Gateway\n"
        "import opgate.core.telemetry, opgate.core.telemetry.otel\n"
        "g = Gateway(call_log=False)\n"
        "g.help(''); g.search('tasks')\n"
        "print(any(m == 'opentelemetry' or m.startswith('opentelemetry.') for m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "False"


def test_the_global_providers_are_used_by_default(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db")
    instrument(gateway)  # the API's no-op providers when nothing is configured: calls still work
    try:
        assert gateway.help("onto")["ok"]
        assert trace.get_tracer_provider() is not None
    finally:
        gateway.close()
