"""SIGTERM or ctrl+c to ``opgate serve --http`` while a call runs: the call still gets its answer.

sse_starlette ended every open stream as soon as uvicorn's shutdown began, so
a call that was running finished and was logged but its client never heard
the answer. Calls in flight now answer (within a bounded grace) before the
streams that wait for events (a GET stream, a subscription) are closed.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import threading
import time

import httpx
import pytest
from mcp_server_driver import CALL_TIMEOUT, SLOW_CALL_SERVER, child_env

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
MODERN = "2026-07-28"
MODERN_META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
CALL = {"name": "exec", "arguments": {"op": "onto.task.list"}}

_SLOW_HTTP_SERVER = SLOW_CALL_SERVER + """
try:
    serve_http(server, HttpAddress.parse("127.0.0.1:0"))
except KeyboardInterrupt:  # as the CLI does: uvicorn raises ctrl+c again once its shutdown is over
    sys.exit(130)
"""


def _start(tmp_path):
    script = tmp_path / "slow_http_server.py"
    script.write_text(_SLOW_HTTP_SERVER)
    running = tmp_path / "running"
    process = subprocess.Popen([sys.executable, str(script), str(tmp_path / "workspace.db"), str(running)],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=child_env())
    assert process.stderr is not None
    line = process.stderr.readline()
    assert "listening on" in line, line + process.stderr.read()
    return process, line.split("listening on ")[1].split()[0], running


def _legacy_call(client: httpx.Client, url: str) -> tuple[dict, dict]:
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
    response = client.post(url, json=init, headers=HEADERS)
    headers = HEADERS | {"mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": CALL}, headers


def _modern_call(_client: httpx.Client, _url: str) -> tuple[dict, dict]:
    headers = HEADERS | {"mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": "exec"}
    return {"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {**CALL, "_meta": MODERN_META}}, headers


def _answer(text: str) -> dict:
    data = [line[len("data: "):] for line in text.splitlines() if line.startswith("data: ")]
    return json.loads(data[-1]) if data else json.loads(text)


@pytest.mark.parametrize(("era", "stop"), [("legacy", "SIGTERM"), ("2026", "SIGINT"), ("legacy", "SIGINT"), ("2026", "SIGTERM")])
def test_a_call_running_when_the_server_is_stopped_still_gets_its_answer(tmp_path, era, stop):
    process, url, running = _start(tmp_path)
    outcome: dict[str, object] = {}
    try:
        with httpx.Client(timeout=CALL_TIMEOUT) as client:
            body, headers = (_legacy_call if era == "legacy" else _modern_call)(client, url)

            def call() -> None:
                try:
                    outcome["text"] = client.post(url, json=body, headers=headers).text
                except httpx.HTTPError as failure:  # the test reads it back
                    outcome["failure"] = failure

            caller = threading.Thread(target=call)
            caller.start()
            deadline = time.monotonic() + CALL_TIMEOUT
            while not running.exists() and time.monotonic() < deadline:
                time.sleep(0.02)
            assert running.exists(), "the call did not start"
            process.send_signal(getattr(signal, stop))
            caller.join(CALL_TIMEOUT)
        assert "failure" not in outcome, outcome
        answer = _answer(str(outcome["text"]))
        assert answer.get("id") == 7 and answer["result"]["isError"] is False, outcome["text"]
        assert json.loads(answer["result"]["content"][0]["text"])["ok"] is True
        _, errors = process.communicate(timeout=60)
        assert "Traceback" not in errors, errors[-2000:]
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()


def test_a_stream_that_only_waits_for_events_does_not_hold_the_stop_up(tmp_path):
    # Nothing running: the GET stream is ended at once rather than after the grace, when uvicorn would cancel it.
    process, url, running = _start(tmp_path)
    try:
        with httpx.Client(timeout=CALL_TIMEOUT) as client:
            _, headers = _legacy_call(client, url)
            with client.stream("GET", url, headers=headers | {"Accept": "text/event-stream"}) as stream:
                assert stream.status_code == 200
                process.send_signal(signal.SIGTERM)
                try:
                    for _ in stream.iter_bytes():
                        pass
                except httpx.RemoteProtocolError:
                    pass  # the server closed the stream without its last chunk: it ended all the same
        _, errors = process.communicate(timeout=60)
        assert "Traceback" not in errors and "timeout graceful shutdown exceeded" not in errors, errors[-2000:]
        assert not running.exists()
    finally:
        if process.poll() is None:
            process.kill()
            process.communicate()
