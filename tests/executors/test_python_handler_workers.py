"""Handlers run in worker processes: a hang, a crash or a leaked global cannot take the gateway down."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time

import pytest
from tool_folders import REPO, alive, write_tool

WORKER_TOOL = '''
import ctypes
import os
import time

IMPORTS = globals().setdefault("IMPORTS", 0) + 1
CALLS = []

def execute(context):
    value = context.args.get("value", "")
    CALLS.append(value)
    started = time.time()
    if value == "sleep":
        time.sleep(context.args["seconds"])
    elif value == "exit":
        os._exit(1)
    elif value == "segfault":
        ctypes.string_at(0)
    elif value == "leak":
        os.environ["OPGATE_LEAKED"] = "yes"
        import json
        json.dumps = None
    elif value == "print":
        print("handler output goes to the log, never into the protocol")
    return {"ok": True, "data": {"pid": os.getpid(), "imports": IMPORTS, "calls": len(CALLS), "started": started, "ended": time.time()}}
'''
OP = "tools.worker"


@pytest.fixture
def tools_with_worker(tools):
    write_tool(tools, "worker", WORKER_TOOL)
    return tools


def test_a_hang_is_stopped_at_the_hard_timeout_and_the_next_call_works(tools_with_worker, gateway_over):
    gateway = gateway_over(tools_with_worker, hard_timeout_s=1)
    first = gateway.exec(OP, {"value": "warm"})
    assert first["ok"], first
    started = time.monotonic()
    envelope = gateway.exec(OP, {"value": "sleep", "seconds": 3})
    took = time.monotonic() - started
    assert 0.9 <= took < 2.0, took
    error = envelope["error"]
    assert error["code"] == "INTERNAL" and error["details"]["retryable"] is True
    assert "did not finish within 1 s and was stopped" in error["message"]
    assert not alive(first["result"]["pid"]), "the worker that hung was killed and reaped"
    after = gateway.exec(OP, {"value": "next"})
    assert after["ok"] and after["result"]["pid"] != first["result"]["pid"]


@pytest.mark.parametrize("value, how", [("exit", "exited with code 1"), ("segfault", "SIGSEGV")])
def test_a_crash_is_internal_and_the_next_call_works(tools_with_worker, gateway_over, value, how):
    gateway = gateway_over(tools_with_worker)
    envelope = gateway.exec(OP, {"value": value})
    error = envelope["error"]
    assert error["code"] == "INTERNAL" and how in error["message"], error
    assert "Traceback" not in str(envelope)
    assert gateway.exec(OP, {"value": "next"})["ok"]


def test_workers_are_reused_and_import_the_handler_once(tools_with_worker, gateway_over):
    gateway = gateway_over(tools_with_worker)
    answers = [gateway.exec(OP, {"value": str(n)})["result"] for n in range(4)]
    assert len({a["pid"] for a in answers}) == 1, "one caller at a time keeps to one worker"
    assert [a["imports"] for a in answers] == [1, 1, 1, 1]
    assert [a["calls"] for a in answers] == [1, 2, 3, 4]


def test_a_leaked_global_stays_in_the_worker(tools_with_worker, gateway_over):
    gateway = gateway_over(tools_with_worker)
    assert gateway.exec(OP, {"value": "leak"})["ok"]
    assert "OPGATE_LEAKED" not in os.environ
    # The worker's json module is broken now; its answers still arrive (the protocol does not use the handler's globals).
    assert gateway.exec(OP, {"value": "after"})["ok"]


def test_printing_does_not_break_the_protocol(tools_with_worker, gateway_over):
    gateway = gateway_over(tools_with_worker)
    assert gateway.exec(OP, {"value": "print"})["ok"]
    assert gateway.exec(OP, {"value": "again"})["ok"]


def test_calls_run_in_parallel_up_to_the_pool_size(tools_with_worker, gateway_over):
    gateway = gateway_over(tools_with_worker)
    envelopes = gateway.batch([{"tool": "exec", "args": {"op": OP, "args": {"value": "sleep", "seconds": 1}}} for _ in range(2)], on_error="continue")
    assert all(e["ok"] for e in envelopes), envelopes
    first, second = (e["result"] for e in envelopes)
    assert first["pid"] != second["pid"]
    assert first["started"] < second["ended"] and second["started"] < first["ended"], "the two calls ran at the same time"
    assert len(gateway.executors.opened()[("python", None)].worker_pids) == 2


def test_close_kills_and_reaps_every_worker(tools_with_worker, gateway_over):
    gateway = gateway_over(tools_with_worker)
    gateway.batch([{"tool": "exec", "args": {"op": OP, "args": {"value": "sleep", "seconds": 0.3}}} for _ in range(2)], on_error="continue")
    executor = gateway.executors.opened()[("python", None)]
    pids = executor.worker_pids
    assert len(pids) == 2 and all(alive(pid) for pid in pids)
    gateway.close()
    assert not any(alive(pid) for pid in pids)
    assert executor.worker_pids == []


def test_close_stops_a_worker_in_the_middle_of_a_call(tools_with_worker, gateway_over):
    import threading

    gateway = gateway_over(tools_with_worker)
    answers = []
    caller = threading.Thread(target=lambda: answers.append(gateway.exec(OP, {"value": "sleep", "seconds": 20})))
    caller.start()
    executor = None
    for _ in range(100):
        executor = gateway.executors.opened().get(("python", None))
        if executor and executor.worker_pids:
            break
        time.sleep(0.05)
    pids = executor.worker_pids
    time.sleep(0.3)
    gateway.close()
    caller.join(timeout=10)
    assert not caller.is_alive()
    assert answers and answers[0]["error"]["code"] == "INTERNAL"
    assert not any(alive(pid) for pid in pids)


def test_a_gateway_that_is_never_closed_leaves_no_worker_behind(tools_with_worker, tmp_path):
    script = textwrap.dedent(f"""
        from opgate.core import Gateway
        gateway = Gateway.from_catalogs([{str(tools_with_worker)!r}], db_path={str(tmp_path / "w.db")!r})
        print(gateway.exec({OP!r}, {{"value": "x"}})["result"]["pid"], flush=True)
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60, cwd=REPO)
    assert done.returncode == 0, done.stderr
    pid = int(done.stdout.strip())
    for _ in range(50):
        if not alive(pid):
            break
        time.sleep(0.1)
    assert not alive(pid)


def test_a_worker_whose_gateway_was_killed_exits(tools_with_worker, tmp_path):
    script = textwrap.dedent(f"""
        import threading
        from opgate.core import Gateway
        gateway = Gateway.from_catalogs([{str(tools_with_worker)!r}], db_path={str(tmp_path / "w.db")!r})
        print(gateway.exec({OP!r}, {{"value": "x"}})["result"]["pid"], flush=True)
        gateway.exec({OP!r}, {{"value": "sleep", "seconds": 60}})
    """)
    parent = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True, cwd=REPO)
    try:
        pid = int(parent.stdout.readline())
        time.sleep(0.5)
        parent.kill()
        parent.wait(timeout=10)
    finally:
        parent.stdout.close()
    # The gateway died by SIGKILL mid-call: the hanging worker notices it is orphaned and exits.
    for _ in range(60):
        if not alive(pid):
            break
        time.sleep(0.1)
    assert not alive(pid)
