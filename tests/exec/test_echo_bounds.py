"""Errors quote what the caller sent cut short: an op name, path or argument of 100,000 characters comes back as its head and its length."""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.echo_text import quoted, shortened, shortened_words
from opgate.core.modes import ToolRouter

HUGE = "y" * 100_000


def test_quoted_and_shortened_keep_short_text_and_cut_long_text():
    assert quoted("onto.task") == "'onto.task'" and shortened("abc") == "abc"
    assert quoted("a\x1b[2J") == repr("a\x1b[2J")
    assert quoted(HUGE) == repr("y" * 80) + "… (100,000 characters)"
    assert shortened(HUGE, 10) == "y" * 10 + "… (100,000 characters)"
    assert quoted(None) == "None" and quoted(list(range(100_000))).endswith("characters)")
    assert shortened_words(f"invalid choice: {HUGE} (choose from a, b)") == f"invalid choice: {'y' * 80}… (100,000 characters) (choose from a, b)"


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "w.db", call_log=False)
    yield gateway
    gateway.close()


def _message(answer):
    return answer["error"]["message"]


def test_core_error_messages_quote_huge_input_short(gateway):
    router = ToolRouter(gateway)
    messages = {
        "exec op": _message(gateway.exec(f"onto.{HUGE}", {})),
        "exec argument": _message(gateway.exec("onto.task.list", {HUGE: 1})),
        "help path": _message(gateway.help(f"onto.{HUGE}")),
        "search path": _message(gateway.search("tasks", path=HUGE)),
        "tool name": _message(router.call(HUGE, {})),
        "batch on_error": _message(gateway.batch([{"tool": "help", "args": {}}], on_error=HUGE)[0]),
        "protocol tool": _message(router.call("expand_tool", {"tool_id": HUGE})),
    }
    for where, message in messages.items():
        assert len(message) < 600, (where, message[:300])
        assert "characters)" in message, (where, message)


def test_a_huge_query_is_not_echoed_whole_in_a_search_error(gateway):
    answer = gateway.search(HUGE, path="nowhere.at.all")
    assert not answer["ok"] and len(json.dumps(answer)) < 2_000


def test_a_help_error_echoes_a_huge_path_short(gateway):
    answer = ToolRouter(gateway).call("help", {"path": HUGE})
    assert not answer["ok"] and len(json.dumps(answer)) < 2_000 and answer["path"].endswith("(100,000 characters)")


def test_a_search_answer_repeats_a_huge_query_short(gateway):
    answer = gateway.search("list tasks " + HUGE)
    assert answer["ok"] and len(json.dumps(answer)) < 5_000 and answer["query"].endswith("(100,011 characters)")
    assert gateway.search("list tasks")["query"] == "list tasks"


def _deep(levels: int) -> list:
    value: list = []
    for _ in range(levels):
        value = [value]
    return value


UNPRINTABLE = {"an int past Python's 4,300 digits": 10**5000, "a list nested 100,000 deep": _deep(100_000)}


@pytest.mark.parametrize("label", UNPRINTABLE)
def test_quoted_echoes_a_value_repr_cannot_write(label):
    # repr raises for both (ValueError, RecursionError): every error message that quoted such a value raised instead.
    text = quoted(UNPRINTABLE[label])
    assert 0 < len(text) < 200


@pytest.mark.parametrize("label", UNPRINTABLE)
def test_gateway_calls_given_a_value_repr_cannot_write_answer_with_an_error(gateway, label):
    value = UNPRINTABLE[label]
    answers = {
        "search limit": gateway.search("tasks", limit=value),
        "help format": gateway.help("", format=value),
        "batch on_error": gateway.batch([{"tool": "help", "args": {}}], on_error=value)[0],
        "exec argument name": gateway.exec("onto.task.list", {10**5000: 1}),
    }
    for where, answer in answers.items():
        assert answer["ok"] is False and answer["error"]["code"] != "INTERNAL", (where, answer)
        assert len(json.dumps(answer)) < 2_000, where


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("subject", [10**5000, _nested(100_000)], ids=["int-of-5000-digits", "list-nested-100k"])
def test_help_and_search_refuse_a_subject_no_text_can_show(tmp_path, subject):
    """The telemetry subject of a call whose path or query is not text is made without raising, so the refusal is the answer."""
    gateway = Gateway(db_path=tmp_path / "w.db")  # call log on: the subject is recorded
    try:
        assert gateway.help(subject)["error"]["code"] == "VALIDATION_ERROR"
        assert gateway.search(subject)["error"]["code"] == "VALIDATION_ERROR"
    finally:
        gateway.close()


def test_thousands_of_unknown_arguments_are_counted_not_each_listed(gateway):
    """Each listed unknown name looks for a close known one; 30,000 of them are 49 rows and one that counts the rest."""
    args = {"titl": "x", **{f"k{i}": i for i in range(30_000)}}
    error = gateway.exec("onto.task.create", args)["error"]
    rows = error["details"]["field_errors"]
    unknown = [row for row in rows if row["code"] == "unknown_argument"]
    assert len(unknown) == 50 and unknown[-1]["more"] == 30_001 - 49
    assert unknown[-1]["message"] == "29,952 more unknown arguments, not listed"
    assert error["message"].startswith("30,003 problems with the arguments of onto.task.create")
    assert any(row.get("suggestion") == "title" for row in unknown)  # a listed typo still gets its suggestion
    assert [row["code"] for row in rows[50:]] == ["missing_required", "missing_required"]


def test_a_few_unknown_arguments_are_each_listed(gateway):
    rows = gateway.exec("onto.task.create", {f"k{i}": i for i in range(50)})["error"]["details"]["field_errors"]
    assert sum(row["code"] == "unknown_argument" for row in rows) == 50 and not any("more" in row for row in rows)


def test_a_gateway_tool_names_ten_unknown_arguments_and_counts_the_rest():
    router = ToolRouter(Gateway(call_log=False))
    message = router.call("search", {"query": "tasks", **{f"k{i}": i for i in range(30_000)}})["error"]["message"]
    assert message.count("'k") == 10 and "and 29,990 more; it takes" in message
