"""A caller that gives up on a handler's call (an MCP client's notifications/cancelled) stops the handler's worker.

Only upstream MCP calls heard of it: a cancelled handler ran on to the hard
timeout (30 s), holding a worker, and a write went on writing.
"""

from __future__ import annotations

import threading
import time

from opgate.core.executors._progress import abandonable
from tool_folders import WRITER, alive, write_tool

SLOW = """
import time

def execute(context):
    time.sleep(float(context.args.get("seconds", 20)))
    return {"ok": True, "data": {"slept": context.args.get("seconds")}}
"""


def test_a_cancelled_handler_call_stops_its_worker_and_says_so(tools, gateway_over):
    write_tool(tools, "sleeper", SLOW, **WRITER)
    gateway = gateway_over(tools, allow_write=True)
    assert gateway.exec("tools.sleeper", {"seconds": 0})["ok"]
    [pid] = gateway.executors.opened()[("python", None)].worker_pids
    given_up = threading.Event()
    threading.Timer(0.5, given_up.set).start()
    started = time.monotonic()
    with abandonable(given_up):
        answer = gateway.exec("tools.sleeper", {"seconds": 20})
    assert time.monotonic() - started < 5, "the handler ran on after its caller gave up"
    error = answer["error"]
    assert error["code"] == "INTERNAL" and error["details"].get("cancelled") is True and not error["details"].get("retryable"), error
    assert "may have done part of its work" in error["message"] and "cancelled" in error["message"], error
    assert not alive(pid), "the worker of the cancelled call still runs"
    assert gateway.exec("tools.sleeper", {"seconds": 0})["ok"]
