"""The one bounded JSON reader every entry uses: typed errors, never RecursionError."""

from __future__ import annotations

import pytest

from opgate.core import safe_json
from opgate.core.safe_json import MAX_DEPTH, JsonInputError


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("[" * 1100 + "]" * 1100, "too_deep"),  # deeper than the parser's recursion: was a RecursionError
        ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "too_deep"),  # shallow enough to parse, too deep to use
        ("{not json", "not_json"),
        ("1" * 5000, "not_json"),  # an integer too long to convert is a bare ValueError in Python
        ('"' + "x" * 100 + '"', "too_large"),
        (b'{"title": "\xff\xfe"}', "invalid_text"),
        ('{"title": "\\ud800"}', "invalid_text"),
    ],
)
def test_every_unusable_input_is_a_json_input_error(text, code):
    with pytest.raises(JsonInputError) as caught:
        safe_json.loads(text, max_chars=50 if code == "too_large" else safe_json.MAX_CHARS, what="the arguments")
    assert caught.value.code == code
    assert caught.value.message.startswith("the arguments: ")
    assert isinstance(caught.value, ValueError), "callers that catch ValueError keep working"


def test_within_the_limits_it_is_json_loads():
    assert safe_json.loads('{"a": [1, {"b": null}]}') == {"a": [1, {"b": None}]}
    nested = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert safe_json.loads(nested) is not None


def test_text_checks_can_be_left_to_exec_which_names_the_field():
    assert safe_json.loads(b'{"title": "\xff"}', check_text=False) == {"title": "\udcff"}


def test_the_path_of_the_problem_is_reported():
    with pytest.raises(JsonInputError) as caught:
        safe_json.check_value({"moves": [{"title": "ok"}, {"title": "bad \ud800"}]}, root="args")
    assert caught.value.path == ("moves", 1, "title")
    assert caught.value.message.startswith("args.moves[1].title ")


def test_scrub_text_makes_anything_writable_and_never_recurses_without_end():
    assert safe_json.scrub_text({"t\udcff": ["a\ud800"]}) == {"t\ufffd": ["a\ufffd"]}
    deep: object = 1
    for _ in range(5000):
        deep = [deep]
    assert safe_json.scrub_text(deep) == safe_json.TOO_DEEP_NOTE
