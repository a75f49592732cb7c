"""A handler's large answer is read in linear time and bounded, as an upstream MCP server's is.

Each 64 KB chunk of the worker's answer was joined onto the line so far and
the whole line searched for its end: a handler that returned 50 MB of text
ran past the call's 30 s and was reported as a timeout; and nothing bounded
what was read.
"""

from __future__ import annotations

from tool_folders import write_tool


def test_a_fifty_megabyte_answer_is_read_and_cut_to_the_envelope(tools, gateway_over):
    write_tool(tools, "big", """
        def execute(context):
            return {"ok": True, "data": "y" * 50_000_000}
    """)
    answer = gateway_over(tools, hard_timeout_s=25.0).exec("big", {})
    assert answer["ok"], answer.get("error")
    (cut,) = answer["meta"]["truncated"]
    assert cut["total_chars"] == 50_000_000


def test_an_answer_past_the_bound_is_not_read_and_the_next_call_gets_a_new_worker(tools, gateway_over):
    write_tool(tools, "huge", """
        import os

        def execute(context):
            if context.args.get("value") == "small":
                return {"ok": True, "data": os.getpid()}
            return {"ok": True, "data": "z" * 80_000_000}
    """)
    gateway = gateway_over(tools)
    first = gateway.exec("huge", {"value": "small"})["result"]
    refused = gateway.exec("huge", {})
    assert refused["error"]["code"] == "INTERNAL" and "more than 67,108,864 bytes" in refused["error"]["message"], refused
    assert not refused["error"]["details"].get("retryable")
    again = gateway.exec("huge", {"value": "small"})
    assert again["ok"] and again["result"] != first, "the worker that sent too much was kept"
