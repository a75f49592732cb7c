"""Cutting the stdio byte stream into lines, however the reads split it (``LineSplitter``)."""

from __future__ import annotations

import json

import pytest

from opgate.mcp_server._stdio_lines import HEAD_BYTES, LineSplitter, parse_line

CALL = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"exec","arguments":{"op":"onto.project.list"}}}\n'


def _fed(splitter: LineSplitter, *reads: bytes) -> list[tuple[bytes, int]]:
    return [line for data in reads for line in splitter.feed(data)]


def test_several_lines_in_one_read_come_out_in_order():
    second = CALL.replace(b'"id":7', b'"id":8')
    lines = LineSplitter(1000).feed(CALL + b"\n" + second)
    assert lines == [(CALL, len(CALL)), (b"\n", 1), (second, len(second))]


@pytest.mark.parametrize("cut", [1, 2, 17, len(CALL) - 1])
def test_a_line_split_across_reads_is_joined(cut):
    splitter = LineSplitter(1000)
    assert splitter.feed(CALL[:cut]) == []
    assert splitter.feed(CALL[cut:]) == [(CALL, len(CALL))]


def test_a_line_fed_one_byte_at_a_time_is_whole():
    splitter = LineSplitter(1000)
    lines = _fed(splitter, *(CALL[i:i + 1] for i in range(len(CALL))), CALL[:10])
    assert lines == [(CALL, len(CALL))]
    assert splitter.end() == (CALL[:10], 10), "the unfinished rest is the last line at the end of input"
    assert splitter.end() is None


def test_a_line_at_the_limit_is_kept_and_one_past_it_is_not():
    line = b"x" * 99 + b"\n"
    assert LineSplitter(100).feed(line) == [(line, 100)]
    (head, size), = LineSplitter(99).feed(line)
    assert size == 100 and parse_line(head, size, 99).reply.message.error.code == -32600


def test_a_huge_line_over_many_reads_keeps_only_its_head_and_the_next_line_is_whole():
    splitter = LineSplitter(1000)
    start = b'{"jsonrpc":"2.0","id":41,"method":"tools/call","params":{"name":"exec","arguments":{"args":{"title":"'
    reads = [start] + [b"x" * 65536] * 40 + [b'"}}}}\n' + CALL]
    lines = _fed(splitter, *reads)
    assert [size for _, size in lines] == [sum(map(len, reads)) - len(CALL), len(CALL)]
    head = lines[0][0]
    assert len(head) <= HEAD_BYTES and head.startswith(start)
    assert lines[1] == (CALL, len(CALL))
    answer = parse_line(*lines[0], 1000)
    assert answer.reply.message.id == 41 and "over the 1000-byte limit" in answer.reply.message.error.message


def test_a_huge_line_in_one_read_is_cut_to_its_head():
    data = b'{"id":"big","x":"' + b"y" * (2 * HEAD_BYTES) + b'"}\n'
    (head, size), = LineSplitter(1000).feed(data)
    assert size == len(data) and len(head) == HEAD_BYTES and head.startswith(b'{"id":"big"')


def test_lines_that_fit_are_parsed_whatever_the_reads():
    message = json.dumps({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "exec", "arguments": {"op": "x", "args": {"t": "é" * 3000}}}}, ensure_ascii=False).encode() + b"\n"
    splitter = LineSplitter(1 << 20)
    lines = _fed(splitter, *(message[i:i + 1000] for i in range(0, len(message), 1000)))
    assert [size for _, size in lines] == [len(message)]
    assert parse_line(*lines[0], 1 << 20).message.params["arguments"]["args"]["t"] == "é" * 3000


@pytest.mark.parametrize(("head", "request_id"), [
    (b'{"jsonrpc": "2.0", "id": 42, "method": "tools/call", "params": {"x": "', 42),
    (b'{"id": "abc", "method": "tools/call", "params": {"x": "', "abc"),
    # Not ids this reading can tell: a number longer than 18 digits was cut to its first 18, and 1.5e3 read as 1.
    (b'{"jsonrpc": "2.0", "id": 12345678901234567890123, "method": "tools/call", "params": {"x": "', None),
    (b'{"jsonrpc": "2.0", "id": 1.5e3, "method": "tools/call", "params": {"x": "', None),
    (b'{"jsonrpc": "2.0", "id": 007, "method": "tools/call", "params": {"x": "', None),
    (b'{"id": -0, "method": "tools/call", "params": {"x": "', 0),
    (b'{"id": "a\tb", "method": "tools/call", "params": {"x": "', None),  # a raw tab: not a JSON string
    (b'{"id": "\xff", "method": "tools/call", "params": {"x": "', None),  # not UTF-8
])
def test_a_line_over_the_limit_is_answered_with_its_own_id_or_none(head, request_id):
    answer = parse_line(head + b"x" * 100, 10_000, 1_000).reply.message
    assert answer.id == request_id and "over the 1000-byte limit" in answer.error.message
