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
