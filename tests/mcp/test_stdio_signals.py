"""``opgate serve`` over stdio stopped by a signal still writes its call log's last window.

An MCP host may end its server with SIGTERM (or the terminal with SIGHUP)
rather than by closing its input. Left at their default, those signals end
the process at once: no ``finally``, no ``atexit``, and the calls of the
last 0.25 s never reach the call log. The server now stops serving on them,
restores its descriptors and closes its gateways, as on end of input and
ctrl+c.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pytest

from mcp_server_driver import SLOW_CALL_SERVER, child_env, serve_command

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _send(process: subprocess.Popen, message: dict) -> None:
    assert process.stdin is not None
    process.stdin.write(json.dumps(message).encode() + b"\n")
    process.stdin.flush()


def _logged_execs(db) -> int | None:
    shown = subprocess.run([sys.executable, "-m", "opgate", "--db", str(db), "stats", "--json"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0, shown.stderr
    return {row["kind"]: row["calls"] for row in json.loads(shown.stdout)["by_kind"]}.get("exec")


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGHUP", "SIGINT", "end of input"])
def test_a_stopped_stdio_server_keeps_its_last_calls(tmp_path, stop):
    db = tmp_path / "workspace.db"
    process = subprocess.Popen(serve_command(db), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ | child_env())
    assert process.stdout is not None
    _send(process, INITIALIZE)
    assert json.loads(process.stdout.readline())["id"] == 0
    _send(process, INITIALIZED)
    for n in range(1, 4):
        _send(process, {"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.list", "args": {"limit": n}}}})
        assert json.loads(process.stdout.readline())["id"] == n
    if stop == "end of input":
        process.stdin.close()
        process.stdin = None
    else:
        process.send_signal(getattr(signal, stop))  # at once: well inside the call log's 0.25 s window
    rest, errors = process.communicate(timeout=60)
    assert b"Traceback" not in errors, errors.decode()[-2000:]
    assert rest == b"", "nothing but answers on standard output"
    assert process.returncode in (0, 128 + getattr(signal, stop, 0)), (process.returncode, errors.decode()[-2000:])
    assert _logged_execs(db) == 3


_SLOW_SERVER = SLOW_CALL_SERVER + """
try:
    print("stopped by", serve_stdio(server), file=sys.stderr)
finally:
    server.close()
"""


def _slow_call_running(tmp_path, db) -> subprocess.Popen:
    """A stdio server on ``db`` whose one exec (id 1) is running, slowly, when this returns."""
    script = tmp_path / "slow_server.py"
    script.write_text(_SLOW_SERVER)
    running = tmp_path / "running"
    process = subprocess.Popen([sys.executable, str(script), str(db), str(running)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None
    _send(process, INITIALIZE)
    assert json.loads(process.stdout.readline())["id"] == 0
    _send(process, INITIALIZED)
    _send(process, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.list"}}})
    deadline = time.monotonic() + 60
    while not running.exists() and time.monotonic() < deadline:
        time.sleep(0.02)
    return process


def test_sigterm_twice_during_a_call_lets_the_call_finish_and_be_logged(tmp_path):
    db = tmp_path / "workspace.db"
    process = _slow_call_running(tmp_path, db)
    process.send_signal(signal.SIGTERM)
    time.sleep(0.1)
    process.send_signal(signal.SIGTERM)  # a second one must not cut the ending short
    _, errors = process.communicate(timeout=60)
    assert process.returncode == 0 and f"stopped by {int(signal.SIGTERM)}".encode() in errors, errors.decode()[-2000:]
    assert _logged_execs(db) == 1


def test_sigterm_stops_a_server_whose_client_stopped_reading(tmp_path):
    # The answers fill the pipe and the writer blocks: the stop waited for that write for good, and every later signal was caught.
    db = tmp_path / "workspace.db"
    errors = (tmp_path / "stderr").open("w+b")
    process = subprocess.Popen(serve_command(db), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=os.environ | child_env())
    assert process.stdout is not None
    _send(process, INITIALIZE)
    assert json.loads(process.stdout.readline())["id"] == 0
    _send(process, INITIALIZED)
    for n in range(1, 300):  # far more answer bytes than a pipe holds, and never read
        _send(process, {"jsonrpc": "2.0", "id": n, "method": "tools/list"})
    time.sleep(1.0)
    process.send_signal(signal.SIGTERM)
    try:
        code = process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)
        raise AssertionError("SIGTERM did not stop a server whose client stopped reading") from None
    errors.seek(0)
    text = errors.read().decode(errors="replace")
    for stream in (errors, process.stdin, process.stdout):  # the server has ended; left to the collector, each is a ResourceWarning
        stream.close()
    assert code in (0, 128 + signal.SIGTERM) and "Traceback" not in text, (code, text[-2000:])


def test_a_call_running_at_sigterm_sends_its_answer_before_the_server_stops(tmp_path):
    # As over HTTP: the call ran to the end and was logged, but its answer was never written.
    db = tmp_path / "workspace.db"
    process = _slow_call_running(tmp_path, db)
    process.send_signal(signal.SIGTERM)
    rest, errors = process.communicate(timeout=60)
    assert process.returncode == 0 and f"stopped by {int(signal.SIGTERM)}".encode() in errors, errors.decode()[-2000:]
    (answer,) = map(json.loads, rest.splitlines())
    assert answer["id"] == 1 and json.loads(answer["result"]["content"][0]["text"])["result"]["total"] == 0
