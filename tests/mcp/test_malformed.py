"""Broken and oversized JSON-RPC: the server answers each with an error and goes on serving."""

from __future__ import annotations

import json
import os
import subprocess

import httpx
import pytest

from mcp_server_driver import CALL_TIMEOUT, child_env, serve_command

FIVE_MB = 5 * 1024 * 1024
HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}
READ = {"name": "exec", "arguments": {"op": "onto.project.list"}}


def oversized_call(request_id: int) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.create", "args": {"title": "x" * FIVE_MB}}}}


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


def test_stdio_answers_a_request_whose_id_is_not_a_string_or_an_integer(raw_server):
    # Such a line read as a notification (it has no usable id) got no answer: the client waited forever.
    for request_id in (1.5, None, True, [1], {}):
        raw_server.send({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": READ})
        answer = raw_server.receive(timeout=30)
        assert answer["id"] is None and answer["error"]["code"] == -32600 and "id" in answer["error"]["message"], (request_id, answer)
    raw_server.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}})  # a real notification: no answer
    assert raw_server.request(12, "tools/call", READ)["id"] == 12


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


# -- issue 15: nesting, text that is not UTF-8, and answers that grow with the input ---------------

INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
THREE_MIB = 3 * 1024 * 1024


def _create_call(request_id: int, title: str) -> dict:
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.create", "args": {"project_id": "nope", "title": title}}}}


def _envelope(answer: dict) -> dict:
    return json.loads(answer["result"]["content"][0]["text"])


def test_stdio_survives_a_deeply_nested_line_and_still_ends_at_end_of_input(db):
    """The repro: one line of 1,100 nested arrays used to end the reader thread; the server then ignored EOF."""
    lines = b"[" * 1100 + b"]" * 1100 + b"\n" + json.dumps(INITIALIZE).encode() + b"\n"
    done = subprocess.run(serve_command(db), input=lines, capture_output=True, timeout=30, env=os.environ | child_env())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    parse_error, initialized = (json.loads(line) for line in done.stdout.splitlines())
    assert parse_error["error"]["code"] == -32700 and "nested" in parse_error["error"]["message"]
    assert initialized["id"] == 1 and initialized["result"]["serverInfo"]["name"] == "opgate"
    assert b"Traceback" not in done.stderr


def test_stdio_answers_deep_nesting_inside_arguments_with_the_field(raw_server):
    deep: object = "x"
    for _ in range(100):
        deep = [deep]
    call = {"jsonrpc": "2.0", "id": 21, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.list", "args": {"project_id": deep}}}}
    envelope = _envelope(raw_server.request(21, "tools/call", call["params"]))
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert envelope["error"]["details"]["field_errors"][0]["field"].startswith("args.project_id[0][0]")
    assert _envelope(raw_server.request(22, "tools/call", READ))["ok"] is True


def test_stdio_text_that_is_not_utf8_is_a_validation_error_naming_the_field(raw_server):
    raw_server.send(b'{"jsonrpc": "2.0", "id": 31, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.create", "args": {"title": "\xff\xfe"}}}}')
    answer = raw_server.receive()
    assert answer["id"] == 31 and answer["result"]["isError"] is True
    (field_error,) = _envelope(answer)["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["code"]) == ("args.title", "invalid_text")
    raw_server.send(json.dumps(_create_call(32, "half a pair \ud800")).encode())  # json.dumps writes it as the escape \ud800
    answer = raw_server.receive()
    assert _envelope(answer)["error"]["details"]["field_errors"][0]["code"] == "invalid_text"
    assert _envelope(raw_server.request(33, "tools/call", READ))["ok"] is True


def test_stdio_answer_to_a_3_mib_request_stays_small(raw_server):
    raw_server.send(_create_call(41, "x" * THREE_MIB))
    line = raw_server._lines.get(timeout=CALL_TIMEOUT)
    assert line is not None and len(line) < 100_000, f"the answer was {len(line or b''):,} bytes (12.6 MB before)"
    envelope = _envelope(json.loads(line))
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    # Nothing of the 3 MiB comes back: the message says how long the text is instead of quoting it.
    assert "x" * 1000 not in line.decode() if isinstance(line, bytes) else "x" * 1000 not in line


def test_http_answers_deep_nesting_and_bad_text_with_json_rpc_errors_and_keeps_serving(http_server):
    client, headers = _session(http_server.url)
    try:
        deep = client.post(http_server.url, content=b"[" * 100_000 + b"]" * 100_000, headers=headers)
        assert deep.status_code == 400 and _message(deep)["error"]["code"] == -32700
        for body in (
            b'{"jsonrpc": "2.0", "id": 51, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.create", "args": {"title": "\xff"}}}}',
            json.dumps(_create_call(52, "half a pair \ud800")).encode(),
        ):
            response = client.post(http_server.url, content=body, headers=headers)
            message = _message(response)
            # Either the transport refuses the text as JSON, or exec refuses it naming the field: never a silent 500.
            if "error" in message:
                assert message["error"]["code"] == -32700, message
            else:
                assert _envelope(message)["error"]["details"]["field_errors"][0]["code"] == "invalid_text"
        big = client.post(http_server.url, content=json.dumps(_create_call(53, "x" * THREE_MIB)).encode(), headers=headers)
        assert big.status_code == 200 and len(big.content) < 100_000, f"{len(big.content):,} bytes"
        answer = _message(client.post(http_server.url, json={"jsonrpc": "2.0", "id": 54, "method": "tools/call", "params": READ}, headers=headers))
        assert answer["id"] == 54 and answer["result"]["isError"] is False
    finally:
        client.close()


# -- a request whose id is not a string or an integer, over HTTP ------------------------------------

BAD_IDS = (1.5, None, True, [1], {})
MODERN = "2026-07-28"
MODERN_META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}


def _modern_headers(method: str) -> dict[str, str]:
    return HEADERS | {"mcp-protocol-version": MODERN, "mcp-method": method}


def _assert_invalid_id_answer(response: httpx.Response, request_id) -> None:
    # The SDK's transport took such a request for a notification and answered 202 with no body: the client waited forever.
    assert response.status_code == 400, (request_id, response.status_code, response.text)
    answer = _message(response)
    assert answer["id"] is None and answer["error"]["code"] == -32600 and "id" in answer["error"]["message"], (request_id, answer)


def test_http_answers_a_request_whose_id_is_not_a_string_or_an_integer_in_the_handshake_era(http_server):
    client, headers = _session(http_server.url)
    try:
        for request_id in BAD_IDS:
            response = client.post(http_server.url, json={"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": READ}, headers=headers)
            _assert_invalid_id_answer(response, request_id)
        notification = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}}
        assert client.post(http_server.url, json=notification, headers=headers).status_code == 202  # a real notification: no answer
        answer = _message(client.post(http_server.url, json={"jsonrpc": "2.0", "id": 12, "method": "tools/call", "params": READ}, headers=headers))
        assert answer["id"] == 12 and answer["result"]["isError"] is False
    finally:
        client.close()


def test_http_answers_a_request_whose_id_is_not_a_string_or_an_integer_at_2026(http_server):
    with httpx.Client(timeout=CALL_TIMEOUT) as client:
        for request_id in BAD_IDS:
            body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/list", "params": {"_meta": MODERN_META}}
            _assert_invalid_id_answer(client.post(http_server.url, json=body, headers=_modern_headers("tools/list")), request_id)
        body = {"jsonrpc": "2.0", "id": 12, "method": "tools/list", "params": {"_meta": MODERN_META}}
        answer = _message(client.post(http_server.url, json=body, headers=_modern_headers("tools/list")))
        assert answer["id"] == 12 and "exec" in {tool["name"] for tool in answer["result"]["tools"]}


@pytest.mark.parametrize("tool, arguments", [
    ("search", b'{"query": "\xff\xfe task"}'),
    ("help", b'{"path": "onto.\xff"}'),
    ("batch", b'{"steps": [{"tool": "\xff"}]}'),
    ("batch", b'{"steps": [{"tool": "help", "args": {"path": "\xff"}}]}'),
])
def test_stdio_a_gateway_tool_given_text_that_is_not_utf8_answers_with_an_envelope(raw_server, tool, arguments):
    # The answers echoed the bytes back as lone surrogates, which no JSON line can carry: the client got -32603 and no envelope.
    raw_server.send(b'{"jsonrpc": "2.0", "id": 51, "method": "tools/call", "params": {"name": "' + tool.encode() + b'", "arguments": ' + arguments + b"}}")
    answer = raw_server.receive()
    assert answer["id"] == 51 and "result" in answer, answer
    assert json.loads(answer["result"]["content"][0]["text"]) == answer["result"]["structuredContent"]
    assert _envelope(raw_server.request(52, "tools/call", READ))["ok"] is True


def test_http_answers_a_body_that_is_not_one_message_as_stdio_does(http_server):
    """Over HTTP the SDK answered these -32602 with pydantic's dump of four failed models (Python reprs, links to
    pydantic's site); stdio answers -32600 with one sentence. Both transports now give the same answer."""
    client, headers = _session(http_server.url)
    try:
        cases = [
            (b"null", None),
            (b'"ping"', None),
            (b'[{"jsonrpc": "2.0", "id": 2, "method": "ping"}]', None),  # a batch: JSON-RPC batches left MCP in 2025-06-18
            (b'{"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": [1, 2]}', 3),
            (b'{"jsonrpc": "1.0", "id": 4, "method": "ping"}', 4),
            (b'{"jsonrpc": "2.0", "id": 5}', 5),
        ]
        for body, request_id in cases:
            response = client.post(http_server.url, content=body, headers=headers)
            assert response.status_code == 400, (body, response.text)
            answer = response.json()
            assert answer["id"] == request_id and answer["error"]["code"] == -32600, (body, answer)
            assert "a JSON-RPC 2.0 message needs" in answer["error"]["message"] and "pydantic" not in response.text, answer
        answer = _message(client.post(http_server.url, json={"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": READ}, headers=headers))
        assert answer["id"] == 7 and answer["result"]["isError"] is False
    finally:
        client.close()


def test_http_names_an_unsupported_protocol_version_header(http_server):
    """An unknown MCP-Protocol-Version went to the SDK's 2026 entry, whose 400 spoke of params._meta envelope keys."""
    client, headers = _session(http_server.url)
    try:
        for version in ("1999-01-01", "x" * 8_000):
            response = client.post(http_server.url, json={"jsonrpc": "2.0", "id": 8, "method": "ping"}, headers=headers | {"mcp-protocol-version": version})
            assert response.status_code == 400, response.text
            error = response.json()["error"]
            assert error["code"] == -32600 and "Unsupported MCP-Protocol-Version" in error["message"] and "2025-11-25" in error["message"], error
            assert len(error["message"]) < 300
        assert _message(client.post(http_server.url, json={"jsonrpc": "2.0", "id": 9, "method": "ping"}, headers=headers))["result"] == {}
    finally:
        client.close()
