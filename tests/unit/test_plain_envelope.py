"""An envelope printed without rich into a pipe is byte for byte what rich prints there.

``opgate exec`` writes ``plain_text`` when ``StdoutConsole.plain_width`` says
rich would write no colours; both are checked against rich itself.
"""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from opgate.cli._console import StdoutConsole
from opgate.views import render_envelope
from opgate.views._envelope_parts import envelope_parts, plain_text

TASK = {"id": "20000000-0000-4000-8000-000000000021", "title": "Find three sponsors", "state": "in_progress", "priority": 4}
DIFF = {"updated": [{"kind": "task", "id": "20000000-0000-4000-8000-000000000001", "fields": {"title": {"before": "a", "after": "b"}}}]}
ENVELOPES = {
    "list": {"op": "onto.task.list", "ok": True, "result": {"tasks": [TASK, TASK | {"title": ""}], "next_cursor": None}, "meta": {"latency_ms": 3.2, "trace_id": "tr_1"}},
    "empty result": {"op": "onto.task.list", "ok": True, "result": {}, "meta": {}},
    "no meta": {"op": "onto.x", "ok": True, "result": None},
    "dry-run with diff": {"op": "onto.task.update", "ok": True, "result": TASK, "meta": {"dry_run": True, "diff": DIFF, "state_digest": "sd_1", "latency_ms": 1}},
    "empty diff": {"op": "onto.task.update", "ok": True, "result": {}, "meta": {"dry_run": True, "diff": {}, "state_digest": "sd_2"}},
    "preview": {"op": "api.thing.get", "ok": True, "result": None, "meta": {"dry_run": True, "dry_run_kind": "preview", "preview": {"method": "GET", "url": "https://example.org/a"}, "http": {"status": 200}}},
    "HTTP 204": {"op": "api.thing.delete", "ok": True, "result": None, "meta": {"http": {"status": 204}, "latency_ms": 4}},
    "replay with warnings": {"op": "onto.task.create", "ok": True, "result": TASK, "meta": {"idempotent_replay": True, "warnings": ["slow", "old"]}},
    "validation error": {"op": "onto.task.get", "ok": False, "error": {"code": "VALIDATION_ERROR", "message": "missing required argument 'id' (string)", "help_path": "onto.task.get",
                                                                      "details": {"field_errors": [{"field": "args.id", "message": "missing required argument 'id'"}], "usage": "exec onto.task.get id=<id>", "example": {"id": "t1"}, "suggestions": ["onto.task.list"]}}},
    "cancelled": {"op": "onto.task.delete", "ok": False, "error": {"code": "CANCELLED", "message": "no", "details": {"cancelled": True}}},
    "markup-looking text": {"op": "onto.x", "ok": False, "error": {"code": "NOT_FOUND", "message": "[bold]no[/bold] [link=x]", "details": {}}},
    "not ASCII": {"op": "onto.x", "ok": True, "result": {"title": "Café — 東京"}, "meta": {}},
    "a long line": {"op": "onto.x", "ok": True, "result": {"description": "word " * 40}, "meta": {}},
    "a tab and a control code": {"op": "onto.x", "ok": False, "error": {"code": "E", "message": "a\tb\x07c", "details": {}}},
    "lines of text": {"op": "files.text_file.read", "ok": True, "result": "# Notes\n\n  - [b]one[/b]\n  - two\n", "meta": {}},
}


def _rich_prints(envelope: dict, width: int) -> str:
    out = io.StringIO()
    Console(file=out, width=width, highlight=False, soft_wrap=False, _environ={}).print(render_envelope(envelope))
    return out.getvalue()


@pytest.mark.parametrize("width", [20, 80, 200])
@pytest.mark.parametrize("name", list(ENVELOPES))
def test_the_plain_text_is_what_rich_prints(name, width):
    text = plain_text(envelope_parts(ENVELOPES[name]), width)
    if text is None:
        return  # left to rich
    assert text == _rich_prints(ENVELOPES[name], width)


def test_only_what_rich_might_change_is_left_to_it():
    shown = {name: plain_text(envelope_parts(envelope), 80) is not None for name, envelope in ENVELOPES.items()}
    assert shown == {name: name not in ("dry-run with diff", "not ASCII", "a long line", "a tab and a control code") for name in ENVELOPES}  # the diff has arrows


class _Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("stream", [_Pipe, _Terminal])
@pytest.mark.parametrize("environ", [
    {}, {"COLUMNS": "120"}, {"COLUMNS": "abc"}, {"FORCE_COLOR": "1"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "1"}, {"TTY_COMPATIBLE": "0"},
    {"TTY_COMPATIBLE": "0", "FORCE_COLOR": "1"}, {"NO_COLOR": "1"}, {"TERM": "dumb"}, {"COLUMNS": "3"},
], ids=str)
def test_plain_only_where_rich_writes_no_codes_and_at_its_width(stream, environ, monkeypatch):
    for name in ("COLUMNS", "FORCE_COLOR", "TTY_COMPATIBLE", "NO_COLOR", "TERM", "TTY_INTERACTIVE"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    width = StdoutConsole(stream(), highlight=False, soft_wrap=False).plain_width()
    rich = Console(file=stream(), highlight=False, soft_wrap=False)
    if width is not None:
        assert rich.color_system is None and not rich.is_terminal and rich.width == width
    if stream is _Pipe and environ in ({}, {"COLUMNS": "120"}, {"FORCE_COLOR": ""}, {"TTY_COMPATIBLE": "0"}, {"NO_COLOR": "1"}):
        assert width is not None  # the usual pipe is written without rich


def test_an_http_answer_without_a_body_says_so_instead_of_null():
    text = plain_text(envelope_parts(ENVELOPES["HTTP 204"]), 80)
    assert "(the answer has no body)" in text and "null" not in text
    # A preview sent nothing: it has no answer to describe, and a tool's own null stays null.
    assert "no body" not in plain_text(envelope_parts(ENVELOPES["preview"]), 80)
    assert "null" in plain_text(envelope_parts(ENVELOPES["no meta"]), 80)


def test_text_of_many_lines_is_shown_as_lines_not_as_one_json_string():
    """A file read through an MCP server printed as ``"# Notes\\n\\n  - one..."``: one line of escapes."""
    envelope = {"op": "files.text_file.read", "ok": True, "result": "# Notes\n\n  - [b]one[/b]\n\x1b[31m red\u202e\n", "meta": {}}
    shown = _rich_prints(envelope, 80)
    assert "# Notes\n\n  - [b]one[/b]\n" in shown, shown  # as written, markup-looking text included
    assert "\\x1b[31m red\\u202e" in shown, shown  # controls still escaped, never sent
    one_line = _rich_prints(envelope | {"result": "Echo: hi"}, 80)
    assert '"Echo: hi"' in one_line  # a one-line string stays a JSON value
