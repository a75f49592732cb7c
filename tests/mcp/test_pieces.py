"""The server's small parts, without a subprocess: addresses, line parsing, results, the confirmation text, --mcp-config."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from argparse import Namespace

import mcp_types as types
import pytest

from opgate.cli._serve_command import mcp_config
from opgate.core.exec import ConfirmationRequest
from opgate.mcp_server import HttpAddress, is_error, tool_result, transport_security
from opgate.mcp_server._confirmation import ApproverBridge, can_elicit_form, confirmation_message, is_confirmed
from opgate.mcp_server._stdio_lines import Unusable, parse_line

from mcp_server_driver import child_env


@pytest.mark.parametrize(
    ("text", "host", "port", "loopback"),
    [("127.0.0.1:8765", "127.0.0.1", 8765, True), (":0", "127.0.0.1", 0, True), ("9000", "127.0.0.1", 9000, True),
     ("localhost:80", "localhost", 80, True), ("[::1]:8000", "::1", 8000, True), ("0.0.0.0:8000", "0.0.0.0", 8000, False)],
)
def test_http_addresses(text, host, port, loopback):
    address = HttpAddress.parse(text)
    assert (address.host, address.port, address.is_loopback) == (host, port, loopback)


@pytest.mark.parametrize("text", ["127.0.0.1:http", "127.0.0.1:70000", "host:"])
def test_bad_http_addresses_say_what_is_expected(text):
    with pytest.raises(ValueError, match="HOST:PORT"):
        HttpAddress.parse(text)


def test_only_loopback_and_listed_origins_are_allowed():
    settings = transport_security(HttpAddress.parse("127.0.0.1:0"), ["https://app.example/"])
    assert "http://localhost:*" in settings.allowed_origins and "https://app.example" in settings.allowed_origins
    assert not any("*" == origin or "evil" in origin for origin in settings.allowed_origins)
    assert settings.allowed_hosts == ["127.0.0.1:*", "localhost:*", "[::1]:*"]


def test_a_valid_line_becomes_a_message_and_a_blank_one_nothing():
    message = parse_line(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}\n', 50, 100)
    assert isinstance(message.message, types.JSONRPCRequest) and message.message.method == "tools/list"
    assert parse_line(b"  \n", 3, 100) is None


@pytest.mark.parametrize(
    ("line", "request_id", "code"),
    [(b"{oops", None, types.PARSE_ERROR), (b'{"jsonrpc": "2.0", "id": "a"}', "a", types.INVALID_REQUEST),
     (b'{"jsonrpc": "2.0", "id": true, "method": 1}', None, types.INVALID_REQUEST), (b"[]", None, types.INVALID_REQUEST)],
)
def test_an_unusable_line_gets_the_json_rpc_error_it_deserves(line, request_id, code):
    problem = parse_line(line, len(line), 100)
    assert isinstance(problem, Unusable)
    assert problem.reply.message.id == request_id and problem.reply.message.error.code == code


@pytest.mark.parametrize(
    ("head", "request_id"),
    [(b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{', 7), (b'{"method":"x","id":"r-1","params":{', "r-1"),
     (b'{"jsonrpc":"2.0","method":"tools/call","params":{"arguments":{"id":9', None)],
)
def test_an_oversized_line_is_answered_with_its_leading_id_only(head, request_id):
    problem = parse_line(head, 10_000, 100)
    assert problem.reply.message.id == request_id and "10000 bytes" in problem.reply.message.error.message


@pytest.mark.parametrize(
    ("answer", "error"),
    [({"ok": True}, False), ({"ok": False}, True), ([{"ok": False}, {"ok": True}], False), ([{"ok": False}], True), ([], True)],
)
def test_what_counts_as_a_failed_call(answer, error):
    assert is_error(answer) is error
    assert tool_result(answer).is_error is error


def test_a_batch_answer_is_an_object_in_structured_content():
    result = tool_result([{"ok": True, "step": 0}])
    assert result.structured_content == {"results": [{"ok": True, "step": 0}]}
    assert json.loads(result.content[0].text) == result.structured_content


def test_the_confirmation_message_names_the_op_and_what_changes():
    diff = {"deleted": [{"kind": "task", "id": "t1", "row": {"title": "Old task"}}], "updated": [{"kind": "plan", "id": "p1", "fields": {"state_key": {}}}],
            "edges_removed": [{}, {}]}
    request = ConfirmationRequest("onto.task.delete", {"task_id": "t1"}, "Delete a task", {"meta": {"diff": diff}})
    message = confirmation_message(request)
    assert message.splitlines()[0] == "Run onto.task.delete? Delete a task"
    assert "delete task 'Old task' (t1)" in message and "change plan p1: state_key" in message and "edges removed: 2" in message


def test_the_confirmation_message_of_an_mcp_preview_shows_the_tools_call_with_secrets_masked_and_bounded():
    """An upstream that cannot rehearse: the message read "no changes to stored data"; it shows the call instead."""
    preview = {"upstream": "memory", "request": {"method": "tools/call", "params": {"name": "create_entities", "arguments": {"api_token": "tok-abcdef", "notes": "x" * 5000}}}}
    request = ConfirmationRequest("memory.entity.create", {}, "Create entities", {"result": None, "meta": {"dry_run": True, "dry_run_kind": "preview", "preview": preview}})
    message = confirmation_message(request)
    assert "no changes to stored data" not in message and "tools/call 'create_entities' to the upstream MCP server 'memory'" in message, message
    assert "tok-abcdef" not in message and '"api_token": "***"' in message and "more characters)" in message and len(message) < 1000, message


def test_the_confirmation_message_of_an_http_preview_keeps_plain_query_parameters_and_masks_secret_ones():
    preview = {"method": "DELETE", "url": "https://user:pw-123456@api.example/pets/7?cascade=true&api_key=k-123456", "headers": {"authorization": "Bearer t-123456"}}
    request = ConfirmationRequest("pets.pet.delete", {}, "Delete a pet", {"result": None, "meta": {"dry_run": True, "dry_run_kind": "preview", "preview": preview}})
    message = confirmation_message(request)
    assert "DELETE https://***@api.example/pets/7?cascade=true&api_key=***" in message, message
    assert "123456" not in message


def test_the_confirmation_message_of_a_native_dry_run_shows_its_rehearsal_bounded():
    rehearsal = {"would_send": 3, "password": "hunter2-long", "rows": ["r" * 100] * 50}
    request = ConfirmationRequest("mail.send", {}, "Send mail", {"result": rehearsal, "meta": {"dry_run": True, "dry_run_kind": "native"}})
    message = confirmation_message(request)
    assert "Its rehearsal of this call answered:" in message and '"would_send": 3' in message, message
    assert "hunter2-long" not in message and len(message) < 1000, message


@pytest.mark.parametrize(
    ("response", "confirmed"),
    [(types.ElicitResult(action="accept", content={"confirm": True}), True), (types.ElicitResult(action="accept", content={"confirm": False}), False),
     (types.ElicitResult(action="accept"), False), (types.ElicitResult(action="decline"), False), (None, False), ({"action": "accept"}, False)],
)
def test_only_an_accepted_yes_confirms(response, confirmed):
    assert is_confirmed(response) is confirmed


def test_which_clients_can_be_asked():
    assert can_elicit_form(types.ClientCapabilities(elicitation=types.ElicitationCapability()))
    assert can_elicit_form(types.ClientCapabilities(elicitation=types.ElicitationCapability(form=types.FormElicitationCapability())))
    assert not can_elicit_form(types.ClientCapabilities(elicitation=types.ElicitationCapability(url=types.UrlElicitationCapability())))
    assert not can_elicit_form(types.ClientCapabilities()) and not can_elicit_form(None)


def test_the_approver_refuses_when_the_call_set_no_channel():
    bridge = ApproverBridge()
    request = ConfirmationRequest("onto.task.delete", {}, "", {})

    class Yes:
        def ask(self, request):
            return True

    assert bridge(request) is False
    assert bridge.run_with(Yes(), bridge, request) is True
    assert bridge(request) is False, "the channel ends with the call"


def test_mcp_config_runs_this_interpreter_with_absolute_paths(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = Namespace(db="work.db", catalog=["gh=tools.json"], context="writer", allow_write=True, confirm_timeout=None, http=None)
    server = mcp_config(args)["mcpServers"]["opgate"]
    assert server["command"] == sys.executable
    assert server["args"] == ["-m", "opgate", "--db", str(tmp_path / "work.db"), "--catalog", f"gh={tmp_path / 'tools.json'}", "--context", "writer", "serve", "--allow-write"]
    http = mcp_config(Namespace(**{**vars(args), "http": "127.0.0.1:8765"}))
    assert http == {"mcpServers": {"opgate": {"type": "http", "url": "http://127.0.0.1:8765/mcp"}}}
    hybrid = mcp_config(Namespace(**{**vars(args), "mode": "hybrid"}))["mcpServers"]["opgate"]
    assert hybrid["args"][-2:] == ["--mode", "hybrid"]
    team = mcp_config(Namespace(**{**vars(args), "http": "127.0.0.1:0", "auth": True, "public_url": "https://opgate.example.com/mcp"}))["mcpServers"]["opgate"]
    assert team["url"] == "https://opgate.example.com/mcp" and team["headers"]["Authorization"].startswith("Bearer <")


def test_serve_mcp_config_prints_only_the_json(tmp_path):
    done = subprocess.run([sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "serve", "--mcp-config"], capture_output=True, text=True, timeout=60, env=os.environ | child_env())
    assert done.returncode == 0, done.stderr
    server = json.loads(done.stdout)["mcpServers"]["opgate"]
    assert server["args"][-1] == "serve" and str(tmp_path / "w.db") in server["args"]
    assert not (tmp_path / "w.db").exists(), "printing the configuration opens no workspace"


def test_accepted_http_connections_turn_nagle_off():
    """asyncio (under uvicorn) sets TCP_NODELAY only when the listening socket says IPPROTO_TCP."""
    import asyncio
    import socket

    from opgate.mcp_server._http import bind

    async def accept_one() -> int:
        listener = bind(HttpAddress("127.0.0.1", 0))
        seen: asyncio.Future[int] = asyncio.get_running_loop().create_future()

        async def on_connect(reader, writer):
            seen.set_result(writer.get_extra_info("socket").getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY))
            writer.close()

        server = await asyncio.start_server(on_connect, sock=listener)
        async with server:
            _, writer = await asyncio.open_connection(*listener.getsockname()[:2])
            value = await asyncio.wait_for(seen, 5)
            writer.close()
        return value

    assert asyncio.run(accept_one()) != 0
