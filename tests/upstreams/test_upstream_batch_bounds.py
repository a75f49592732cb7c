"""A batch's answer is bounded as a whole, against the real filesystem server: fifty large reads once answered 700 KB."""

from __future__ import annotations

import json
import re

import upstream_servers as us
from opgate.core import Gateway
from opgate.core.executors.mcp import Upstreams
from opgate.core.settings import GatewaySettings

LINE = "line of text\n"


def _gateway(tmp_path, modules, **settings) -> tuple[Gateway, object]:
    files = tmp_path / "files"
    files.mkdir()
    (files / "big.txt").write_text(LINE * 1000, encoding="utf-8")  # 13,000 characters: within one answer's bound
    (files / "huge.txt").write_text(LINE * 3000, encoding="utf-8")  # 39,000: cut by one answer's bound already
    config = us.write_config(tmp_path / "servers.json", {"files": us.filesystem(modules, files)})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), settings=GatewaySettings(**settings))
    return gateway, files


def _read(path) -> dict:
    return {"tool": "exec", "args": {"op": "read_text_file", "args": {"path": str(path)}}}


def test_fifty_large_reads_answer_within_the_batch_bound_and_say_what_was_cut(tmp_path, modules):
    gateway, files = _gateway(tmp_path, modules)
    try:
        alone = gateway.exec("read_text_file", {"path": str(files / "big.txt")})
        assert alone["ok"] and "truncated" not in alone["meta"], alone["meta"]
        small = {"tool": "exec", "args": {"op": "list_allowed_directories", "args": {}}}
        answers = gateway.batch([small] + [_read(files / "big.txt")] * 49)
        limit = gateway.settings.batch_char_limit
        assert len(json.dumps(answers, ensure_ascii=False)) <= limit * 1.02
        assert [a["step"] for a in answers] == list(range(50)) and all(a["ok"] for a in answers)
        assert "truncated" not in answers[0]["meta"], "a small step lost part of its answer"
        for answer in answers[1:]:
            (cut,) = answer["meta"]["truncated"]
            assert cut["path"] == "result.content" and cut["total_chars"] == 13_000
            assert "batch" in cut["how_to_get_more"]
            text = answer["result"]["content"]
            assert text.startswith(LINE * 10) and text.endswith(f" …[truncated: {13_000 - cut['shown_chars']} more characters]")
    finally:
        gateway.close()


def test_a_text_cut_twice_counts_against_the_whole_text(tmp_path, modules):
    gateway, files = _gateway(tmp_path, modules, batch_char_limit=8_000)
    try:
        answers = gateway.batch([_read(files / "huge.txt")] * 4)
        assert len(json.dumps(answers, ensure_ascii=False)) <= 8_000 * 1.02
        for answer in answers:
            (cut,) = answer["meta"]["truncated"]
            assert cut["total_chars"] == 39_000 and cut["shown_chars"] < 2_000
            text = answer["result"]["content"]
            assert text.count("…[truncated") == 1, "the single answer's marker was kept inside the batch's cut"
            assert re.search(rf" …\[truncated: {39_000 - cut['shown_chars']} more characters\]$", text)
    finally:
        gateway.close()


def test_a_batch_within_its_bound_is_answered_as_it_was(tmp_path, modules):
    gateway, files = _gateway(tmp_path, modules)
    try:
        answers = gateway.batch([_read(files / "big.txt")] * 3)
        assert all("truncated" not in a["meta"] for a in answers)
        assert all(a["result"]["content"] == LINE * 1000 for a in answers)
    finally:
        gateway.close()


def test_a_reference_to_a_cut_value_is_refused_and_nothing_is_written(tmp_path, modules):
    """A step's text cut to fit its answer was passed on, marker and all: a batch copied 14,834 of a file's 39,000 bytes."""
    gateway, files = _gateway(tmp_path, modules)
    gateway.allow_write = True
    try:
        answers = gateway.batch([_read(files / "huge.txt"), {"tool": "exec", "args": {"op": "write_file", "args": {"path": str(files / "copy.txt"), "content": "$0.result.content"}}}])
        assert answers[0]["ok"] and answers[0]["meta"]["truncated"][0]["path"] == "result.content"
        assert answers[1]["error"]["code"] == "VALIDATION_ERROR" and "cut to fit step 0's answer" in answers[1]["error"]["message"], answers[1]
        assert not (files / "copy.txt").exists(), "the cut copy was written"
        whole = gateway.batch([_read(files / "big.txt"), {"tool": "exec", "args": {"op": "write_file", "args": {"path": str(files / "copy.txt"), "content": "$0.result.content"}}}])
        assert whole[1]["ok"] and (files / "copy.txt").read_text(encoding="utf-8") == LINE * 1000
    finally:
        gateway.close()


def test_an_item_past_a_cut_list_is_said_to_be_cut_not_missing(tmp_path, modules):
    config = us.write_config(tmp_path / "servers.json", {"memory": us.memory(modules, tmp_path)})
    gateway = Gateway(db_path=tmp_path / "w.db", upstreams=Upstreams.from_files([config]), allow_write=True)
    try:
        people = [{"name": f"person {i:04}", "entityType": "person", "observations": ["x" * 40]} for i in range(600)]
        assert gateway.exec("create_entities", {"entities": people})["ok"]
        answers = gateway.batch([{"tool": "exec", "args": {"op": "read_graph", "args": {}}}, {"tool": "exec", "args": {"op": "open_nodes", "args": {"names": ["$0.result.entities[590].name"]}}}])
        shown = len(answers[0]["result"]["entities"])
        assert shown < 590 and answers[0]["meta"]["truncated"][0]["path"] == "result.entities"
        message = answers[1]["error"]["message"]
        assert f"{shown} of its 600 items shown" in message and "narrow step 0" in message, message
    finally:
        gateway.close()
