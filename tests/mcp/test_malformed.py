"""Broken and oversized JSON-RPC: the server answers each with an error and goes on serving."""

from __future__ import annotations

import json

import httpx
import pytest

from mcp_server_driver import CALL_TIMEOUT, RawStdioServer

FIVE_MB = 5 * 1024 * 1024
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
READ = {"name": "exec", "arguments": {"op": "onto.project.list"}}


def oversized_call(request_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.create", "args": {"title": "x" * FIVE_MB}}}}


@pytest.fixture
def raw_server(db):
    server = RawStdioServer(db)
    assert server.initialize()["result"]["serverInfo"]["name"] == "opgate"
    yield server
    assert server.stop() == 0, "the server ends cleanly when its input closes"
    # Standard output is the protocol: nothing else (logs, warnings) may ever appear on it.
    assert all(json.loads(line)["jsonrpc"] == "2.0" for line in server.stdout_lines)


def test_stdio_answers_broken_json_rpc_and_keeps_serving(raw_server):
    raw_server.send(b"{not json")
    parse_error = raw_server.receive()
    assert parse_error["id"] is None and parse_error["error"]["code"] == -32700
    cases = [
        ({"jsonrpc": "2.0", "id": 2}, -32600),  # no method
        ({"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}, -32601),
        ({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": [1, 2]}, -32600),  # params must be an object
        ({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": 42}}, -32602),
        ({"jsonrpc": "2.0", "id": 6, "method": "tools/call", "params": {"name": "exec", "arguments": "onto.project.list"}}, -32602),
        ({"jsonrpc": "1.0", "id": 7, "method": "tools/list"}, -32600),
    ]
    for message, code in cases:
        raw_server.send(message)
        answer = raw_server.receive()
        assert answer["id"] == message["id"] and answer["error"]["code"] == code, (message, answer)
    raw_server.send(b"[1, 2, 3]")
    assert raw_server.receive()["error"]["code"] == -32600
    assert raw_server.request(9, "tools/call", READ)["result"]["isError"] is False


def test_stdio_skips_an_oversized_message_and_keeps_serving(raw_server):
    raw_server.send(oversized_call(11))
    answer = raw_server.receive()
    assert answer["id"] == 11 and answer["error"]["code"] == -32600
    assert "over the" in answer["error"]["message"]
    envelope = json.loads(raw_server.request(12, "tools/call", READ)["result"]["content"][0]["text"])
    assert envelope["ok"] is True


def _session(url: str) -> tuple[httpx.Client, dict[str, str]]:
    client = httpx.Client(timeout=CALL_TIMEOUT)
    init = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
    response = client.post(url, json=init, headers=HEADERS)
    assert response.status_code == 200
    headers = HEADERS | {"mcp-session-id": response.headers["mcp-session-id"], "mcp-protocol-version": "2025-11-25"}
    assert client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers).status_code == 202
    return client, headers


def _message(response: httpx.Response) -> dict:
    """The JSON-RPC message in a response, whether sent as JSON or as one server-sent event."""
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[len("data: "):] for line in response.text.splitlines() if line.startswith("data: ")]
        return json.loads(data[-1])
    return response.json()


def test_http_answers_broken_json_rpc_and_keeps_serving(http_server):
    client, headers = _session(http_server.url)
    try:
        cases = [
            (b"{not json", 400, -32700),
            (b'{"jsonrpc": "2.0", "id": 2}', 400, None),
            (b'{"jsonrpc": "2.0", "id": 3, "method": "no/such/method"}', 200, -32601),
            (b'{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": [1, 2]}', 400, None),
            (b'{"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": 42}}', 200, -32602),
        ]
        for body, status, code in cases:
            response = client.post(http_server.url, content=body, headers=headers)
            assert response.status_code == status, (body, response.text)
            error = _message(response)["error"]
            assert code is None or error["code"] == code, (body, error)
        oversized = client.post(http_server.url, content=json.dumps(oversized_call(6)).encode(), headers=headers)
        assert oversized.status_code == 413
        answer = _message(client.post(http_server.url, json={"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": READ}, headers=headers))
        assert answer["id"] == 7 and answer["result"]["isError"] is False
    finally:
        client.close()
