"""The stdio wire: messages split across writes, several in one write, a client slow to read, the end of input, and files instead of pipes."""

from __future__ import annotations

import json
import os
import subprocess
import time


from mcp_server_driver import RawStdioServer, child_env, serve_command

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
