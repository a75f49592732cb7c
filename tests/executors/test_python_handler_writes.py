"""Handler writes: allow_write, what dry-run means, idempotency keys and confirmation, proved with marker files."""

from __future__ import annotations

from pathlib import Path

import pytest
from tool_folders import WRITER, write_tool

# Appends a line to the marker file per real call; a dry-run that reaches it says so in the result.
APPEND = '''
def execute(context):
    if context.dry_run:
        return {"ok": True, "data": {"would_append": context.args["value"], "capabilities": dict(context.capabilities)}}
    with open(context.args["marker"], "a") as marker:
        marker.write(context.args["value"] + "\\n")
    return {"ok": True, "data": {"appended": context.args["value"], "capabilities": dict(context.capabilities)}}
'''


def _calls(marker: Path) -> list[str]:
    return marker.read_text().splitlines() if marker.exists() else []


@pytest.fixture
def marker(tmp_path):
    return tmp_path / "marker.txt"


@pytest.fixture
def writer_tools(tools):
    write_tool(tools, "plain-writer", APPEND, **WRITER)
    write_tool(tools, "rehearsing-writer", APPEND, **WRITER, supportsDryRun=True)
    write_tool(tools, "confirmed-writer", APPEND, **WRITER, requiresConfirmation=True)
    return tools


def test_a_write_handler_needs_allow_write(writer_tools, gateway_over, marker):
    gateway = gateway_over(writer_tools)
    refused = gateway.exec("plain_writer", {"value": "a", "marker": str(marker)})
    assert refused["error"]["code"] == "PERMISSION_DENIED"
    assert _calls(marker) == []
    gateway.allow_write = True
    done = gateway.exec("plain_writer", {"value": "a", "marker": str(marker)})
    assert done["ok"] and done["result"]["capabilities"] == {"writes": True, "dry_run": False}
    assert _calls(marker) == ["a"]


def test_dry_run_without_support_sends_nothing_and_previews(writer_tools, gateway_over, marker):
    gateway = gateway_over(writer_tools)
    envelope = gateway.exec("plain_writer", {"value": "a", "marker": str(marker)}, dry_run=True)
    assert envelope["ok"], envelope
    assert envelope["result"] is None
    meta = envelope["meta"]
    assert meta["dry_run"] is True and meta["dry_run_kind"] == "preview"
    preview = meta["preview"]
    assert preview["tool_id"] == "plain_writer" and preview["args"] == {"value": "a", "marker": str(marker)}
    assert preview["handler"] == str((writer_tools / "plain-writer" / "handler.py").resolve())
    assert preview["op"] == envelope["op"]
    assert not marker.exists(), "the handler was not called"
    assert gateway.executors.opened()[("python", None)].worker_pids == [], "no worker was even started"


def test_dry_run_with_support_rehearses_natively(writer_tools, gateway_over, marker):
    gateway = gateway_over(writer_tools)
    envelope = gateway.exec("rehearsing_writer", {"value": "a", "marker": str(marker)}, dry_run=True)
    assert envelope["ok"], envelope
    assert envelope["meta"]["dry_run"] is True and envelope["meta"]["dry_run_kind"] == "native"
    assert envelope["result"] == {"would_append": "a", "capabilities": {"writes": False, "dry_run": True}}
    assert not marker.exists()


def test_a_read_handler_dry_run_runs_for_real(tools, gateway_over):
    write_tool(tools, "reader", 'def execute(context):\n    return {"ok": True, "data": context.dry_run}\n')
    envelope = gateway_over(tools).exec("reader", {}, dry_run=True)
    assert envelope["ok"] and envelope["meta"]["dry_run_kind"] == "read"
    assert envelope["result"] is True


def test_an_idempotency_key_replays_without_a_second_handler_call(writer_tools, gateway_over, marker):
    gateway = gateway_over(writer_tools, allow_write=True)
    args = {"value": "once", "marker": str(marker)}
    first = gateway.exec("plain_writer", args, idempotency_key="key-1")
    again = gateway.exec("plain_writer", args, idempotency_key="key-1")
    assert first["ok"] and again["ok"]
    assert again["result"] == first["result"] and again["meta"]["idempotent_replay"] is True
    assert _calls(marker) == ["once"]
    other = gateway.exec("plain_writer", {**args, "value": "other"}, idempotency_key="key-1")
    assert other["error"]["code"] == "CONFLICT"
    assert _calls(marker) == ["once"]


def test_a_failed_keyed_call_can_be_retried(tools, gateway_over, marker):
    write_tool(tools, "flaky", '''
        import os
        from opgate.tool import ToolError

        def execute(context):
            marker = context.args["marker"]
            first = not os.path.exists(marker)
            with open(marker, "a") as out:
                out.write("call\\n")
            if first:
                raise ToolError("TRANSIENT", "the service hiccuped")
            return {"ok": True, "data": "done"}
    ''', **WRITER)
    gateway = gateway_over(tools, allow_write=True)
    args = {"marker": str(marker)}
    failed = gateway.exec("flaky", args, idempotency_key="k")
    assert failed["error"]["code"] == "INTERNAL" and failed["error"]["details"]["retryable"] is True
    assert gateway.exec("flaky", args, idempotency_key="k")["ok"]
    assert gateway.exec("flaky", args, idempotency_key="k")["meta"]["idempotent_replay"] is True
    assert _calls(marker) == ["call", "call"]


def test_confirmation_is_asked_with_the_preview_and_refusal_sends_nothing(writer_tools, gateway_over, marker):
    asked = []
    gateway = gateway_over(writer_tools, allow_write=True, approver=lambda request: asked.append(request) or False)
    refused = gateway.exec("confirmed_writer", {"value": "a", "marker": str(marker)})
    assert refused["error"]["code"] == "PERMISSION_DENIED"
    assert asked and asked[0].preview["meta"]["dry_run_kind"] == "preview"
    assert not marker.exists()
    gateway.approver = lambda request: True
    assert gateway.exec("confirmed_writer", {"value": "a", "marker": str(marker)})["ok"]
    assert _calls(marker) == ["a"]
