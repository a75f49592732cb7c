"""The catch-all INTERNAL message says "nothing was written" only where that is known: the store's rolled-back transaction."""

from __future__ import annotations

from typing import Any

from test_python_handler_writes import APPEND
from tool_folders import WRITER, write_tool


class FailsAfterRunning:
    """The real handler executor, then an unexpected exception: any defect that strikes after the write was sent."""

    def __init__(self, real: Any):
        self.real = real
        self.keeps_idempotency = real.keeps_idempotency
        self.name = real.name

    def __getattr__(self, name: str) -> Any:
        return getattr(self.real, name)

    def run(self, invocation: Any) -> Any:
        self.real.run(invocation)
        raise RuntimeError("a defect after the handler ran")


def test_an_unexpected_failure_after_a_handler_write_does_not_say_nothing_was_written(tools, gateway_over, tmp_path):
    write_tool(tools, "plain-writer", APPEND, **WRITER)
    gateway = gateway_over(tools, allow_write=True)
    record = gateway.registry.resolve("plain_writer")
    gateway.executors.add("python", None, FailsAfterRunning(gateway.executors.for_record(record)))
    marker = tmp_path / "marker.txt"
    failed = gateway.exec("plain_writer", {"value": "a", "marker": str(marker)})
    assert marker.read_text() == "a\n", "the handler did write"
    message = failed["error"]["message"]
    assert failed["error"]["code"] == "INTERNAL" and "nothing was written" not in message, message
    assert "it may have acted; check before sending it again" in message, message
