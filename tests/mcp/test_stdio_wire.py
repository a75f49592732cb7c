"""The stdio wire: messages split across writes, several in one write, a client slow to read, the end of input, and files instead of pipes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time


from mcp_server_driver import SLOW_CALL_SERVER, RawStdioServer, child_env, serve_command

INITIALIZE = {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def _line(message: dict) -> bytes:
    return json.dumps(message).encode() + b"\n"


def _call(request_id: int) -> bytes:
    return _line({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.project.list"}}})


def _listed(request_id: int) -> bytes:
    return _line({"jsonrpc": "2.0", "id": request_id, "method": "tools/list"})


def _ok(answer: dict, request_id: int) -> bool:
    return answer["id"] == request_id and json.loads(answer["result"]["content"][0]["text"])["ok"] is True


def _write(server: RawStdioServer, data: bytes) -> None:
    assert server.process.stdin is not None
    server.process.stdin.write(data)
    server.process.stdin.flush()


def test_a_message_split_across_writes_is_answered_once_whole(raw_server):
    call = _call(5)
    for piece in (call[:1], call[1:40], call[40:-1]):
        _write(raw_server, piece)
        time.sleep(0.05)  # each piece arrives in a read of its own
    _write(raw_server, call[-1:])
    assert _ok(raw_server.receive(), 5)
    assert _ok(raw_server.request(6, "tools/call", {"name": "exec", "arguments": {"op": "onto.project.list"}}), 6)


def test_several_messages_in_one_write_are_each_answered(raw_server):
    _write(raw_server, _call(11) + b"\n" + b"{broken\n" + _call(12) + _call(13)[:30])
    answers = [raw_server.receive() for _ in range(3)]
    by_id = {answer["id"]: answer for answer in answers}
    assert set(by_id) == {11, None, 12}
    assert by_id[None]["error"]["code"] == -32700
    assert _ok(by_id[11], 11) and _ok(by_id[12], 12)
    _write(raw_server, _call(13)[30:])
    assert _ok(raw_server.receive(), 13)


def test_a_client_slow_to_read_gets_every_answer(raw_server):
    # Far more answer bytes than a pipe holds: the server must wait for the client, not drop or block for good.
    count = 300
    _write(raw_server, b"".join(_listed(100 + n) for n in range(count)))
    time.sleep(1.0)
    answers = [raw_server.receive() for _ in range(count)]
    assert sorted(answer["id"] for answer in answers) == list(range(100, 100 + count))
    assert sum(len(json.dumps(answer)) for answer in answers) > 512 * 1024
    assert all(len(answer["result"]["tools"]) == 4 for answer in answers)


def test_the_last_line_without_a_newline_is_read_at_the_end_of_input(db):
    lines = _line(INITIALIZE) + _line(INITIALIZED) + b'{"jsonrpc": "2.0", "id": 3, "method": "tools/list"'
    done = subprocess.run(serve_command(db), input=lines, capture_output=True, timeout=60, env=os.environ | child_env())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    initialized, answer = (json.loads(line) for line in done.stdout.splitlines())
    assert initialized["id"] == 0 and answer["id"] is None and answer["error"]["code"] == -32700


def test_standard_input_from_a_file_is_cut_into_the_same_lines(db, tmp_path):
    # (At the end of input, calls still running are abandoned: initialize and unusable lines are answered before.)
    requests = tmp_path / "requests"
    requests.write_bytes(_line(INITIALIZE) + b"{broken\n" + b'{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": "x" ' + b" " * 300_000 + b"}\n")
    with requests.open("rb") as stdin:
        done = subprocess.run(serve_command(db), stdin=stdin, capture_output=True, timeout=60, env=os.environ | child_env())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = {answer["id"]: answer for answer in map(json.loads, done.stdout.splitlines())}
    assert set(answers) == {0, None, 9}, "unusable lines are answered straight away, so the order may differ"
    assert answers[0]["result"]["serverInfo"]["name"] == "opgate"
    assert answers[None]["error"]["code"] == -32700 and answers[9]["error"]["code"] == -32600


def test_standard_output_to_a_file_gets_every_answer(db, tmp_path):
    answers = tmp_path / "answers"
    with answers.open("wb") as stdout:
        process = subprocess.Popen(serve_command(db), stdin=subprocess.PIPE, stdout=stdout, stderr=subprocess.DEVNULL, env=os.environ | child_env())
        assert process.stdin is not None
        process.stdin.write(_line(INITIALIZE) + _line(INITIALIZED) + _call(1) + _call(2))
        process.stdin.flush()
        deadline = time.monotonic() + 60
        while answers.read_bytes().count(b"\n") < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        process.stdin.close()
        assert process.wait(timeout=30) == 0
    initialized, *calls = (json.loads(line) for line in answers.read_bytes().splitlines())
    assert initialized["id"] == 0
    assert sorted(answer["id"] for answer in calls) == [1, 2] and all(_ok(answer, answer["id"]) for answer in calls)


# A script serving in-process handlers over stdio, as the Python API allows; the handler prints.
_PRINTING_SERVER = """
import sys
from opgate.core import Gateway
from opgate.core.exec import Handler
from opgate.mcp_server import GatewayMCPServer, serve_stdio

def loud(ctx, args):
    print("printed by a handler while serving")
    return {"tasks": [], "total": 0}

server = GatewayMCPServer(lambda *a, **k: Gateway(db_path=sys.argv[1], handlers={"onto.task.list": Handler(loud)}, call_log=False))
try:
    serve_stdio(server)
finally:
    server.close()
print("printed after serving")
"""


def test_a_print_while_serving_never_reaches_the_protocol_even_at_exit(db, tmp_path):
    # Without PYTHONUNBUFFERED (MCP hosts do not set it) print() fills sys.stdout's buffer; it used to be
    # flushed at exit, after descriptor 1 was pointed back at the protocol, as a line that is not JSON.
    script = tmp_path / "serve_printing.py"
    script.write_text(_PRINTING_SERVER)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONUNBUFFERED"}
    call = _line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.list"}}})
    process = subprocess.Popen([sys.executable, str(script), str(db)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(_line(INITIALIZE) + _line(INITIALIZED) + call)
    process.stdin.flush()
    answers = [json.loads(process.stdout.readline()) for _ in range(2)]  # the call is answered before its input ends
    assert [answer["id"] for answer in answers] == [0, 1] and _ok(answers[1], 1)
    process.stdin.close()
    process.stdin = None
    rest, errors = process.communicate(timeout=60)
    assert process.returncode == 0, errors[-2000:]
    assert rest.splitlines() == [b"printed after serving"], rest[-500:]
    assert b"printed by a handler while serving" in errors


def test_a_call_still_running_when_input_ends_gets_its_answer(db, tmp_path):
    # `opgate serve < requests.jsonl`: the server stopped at the end of input and the running call's answer was never written.
    script = tmp_path / "slow_server.py"
    script.write_text(SLOW_CALL_SERVER + "\nserve_stdio(server)\nserver.close()\n")
    slow = _line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.list"}}})
    lines = _line(INITIALIZE) + _line(INITIALIZED) + slow + _listed(2)
    done = subprocess.run([sys.executable, str(script), str(db), str(tmp_path / "running")], input=lines, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = {message["id"]: message for message in map(json.loads, done.stdout.splitlines())}
    assert sorted(answers) == [0, 1, 2], done.stdout.decode()[-2000:]
    assert json.loads(answers[1]["result"]["content"][0]["text"])["result"]["total"] == 0 and len(answers[2]["result"]["tools"]) == 4


def test_a_malformed_line_reusing_a_running_calls_id_does_not_lose_that_calls_answer(db, tmp_path):
    # The error answering the malformed line (its id: 1) was counted as the running call's answer, so the end of input
    # found nothing owed and the server stopped before the slow call answered.
    script = tmp_path / "slow_server.py"
    script.write_text(SLOW_CALL_SERVER + "\nserve_stdio(server)\nserver.close()\n")
    slow = _line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.list"}}})
    malformed = _line({"jsonrpc": "2.0", "id": 1, "method": 5})
    done = subprocess.run([sys.executable, str(script), str(db), str(tmp_path / "running")], input=_line(INITIALIZE) + _line(INITIALIZED) + slow + malformed, capture_output=True, timeout=60)
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert [a["id"] for a in answers if "error" in a] == [1], done.stdout.decode()[-2000:]
    results = [a for a in answers if a["id"] == 1 and "result" in a]
    assert len(results) == 1 and json.loads(results[0]["result"]["content"][0]["text"])["result"]["total"] == 0, done.stdout.decode()[-2000:]


def test_a_call_waiting_for_a_confirmation_when_input_ends_is_answered_and_the_server_ends(db):
    # The client can no longer answer the question: the call is refused at once, rather than left unanswered or waiting 10 minutes.
    process = subprocess.Popen(serve_command(db, "--allow-write"), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=os.environ | child_env())
    assert process.stdin is not None and process.stdout is not None
    asking = {**INITIALIZE, "params": {**INITIALIZE["params"], "capabilities": {"elicitation": {"form": {}}}}}
    process.stdin.write(_line(asking) + _line(INITIALIZED))
    process.stdin.write(_line({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "onto.task.delete", "args": {"task_id": "20000000-0000-4000-8000-000000000009"}}}}))
    process.stdin.flush()
    assert json.loads(process.stdout.readline())["id"] == 0
    assert json.loads(process.stdout.readline())["method"] == "elicitation/create"
    process.stdin.close()
    process.stdin = None
    rest, errors = process.communicate(timeout=60)
    assert process.returncode == 0 and b"Traceback" not in errors, errors.decode()[-2000:]
    (answer,) = map(json.loads, rest.splitlines())
    assert answer["id"] == 1 and answer["result"]["isError"] is True
    assert json.loads(answer["result"]["content"][0]["text"])["error"]["code"] in ("PERMISSION_DENIED", "CANCELLED")


def test_an_open_subscription_does_not_keep_the_server_after_its_input_ends(db):
    # subscriptions/listen is answered only when its stream ends: it is no call whose answer the end of input waits for.
    meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {}, "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "1"}}
    listen = {"jsonrpc": "2.0", "id": 2, "method": "subscriptions/listen", "params": {"_meta": meta, "notifications": {"toolsListChanged": True}}}
    lines = _line({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}}) + _line(listen)
    done = subprocess.run(serve_command(db, "--mode", "hybrid"), input=lines, capture_output=True, timeout=60, env=os.environ | child_env())
    assert done.returncode == 0, done.stderr.decode()[-2000:]
    assert 1 in [json.loads(line).get("id") for line in done.stdout.splitlines()]


def test_a_client_that_closes_the_servers_output_ends_it_quietly(db, tmp_path):
    # The answer's write raised BrokenPipeError on the event loop: an exception group traceback on stderr, and exit status 1.
    with (tmp_path / "stderr").open("w+b") as errors, subprocess.Popen(
        serve_command(db), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=errors, env=os.environ | child_env(),
    ) as process:  # its pipes and the stderr file are closed once it has ended
        assert process.stdin is not None and process.stdout is not None
        _write_to(process, _line(INITIALIZE) + _line(INITIALIZED))
        assert json.loads(process.stdout.readline())["id"] == 0
        process.stdout.close()
        _write_to(process, _listed(1))
        try:
            code = process.wait(timeout=30)
        finally:
            if process.poll() is None:
                process.kill()
        errors.seek(0)
        text = errors.read().decode(errors="replace")
    assert code == 0 and "Traceback" not in text and "BrokenPipe" not in text, (code, text[-2000:])


def _write_to(process: subprocess.Popen, data: bytes) -> None:
    assert process.stdin is not None
    process.stdin.write(data)
    process.stdin.flush()
