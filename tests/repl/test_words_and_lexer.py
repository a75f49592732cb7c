"""Reading half-typed lines, quoting values, and highlighting each part of a line."""

from __future__ import annotations

import pytest
from prompt_toolkit.document import Document

from opgate.core.argtext import ArgTextError
from opgate.repl._lexer import ReplLexer
from opgate.repl._words import quote, shell_split, split_words, words_before_cursor


def test_words_keep_their_place_and_lose_their_quotes():
    words = split_words('exec op title="a b" note=it\\ is')
    assert [w.value for w in words] == ["exec", "op", "title=a b", "note=it is"]
    assert words[2].start == 8 and words[2].raw == 'title="a b"'


def test_an_open_quote_runs_to_the_end_and_is_marked_open():
    words = split_words("exec op title='a b")
    assert words[-1].value == "title=a b" and not words[-1].closed


def test_the_word_being_typed_is_empty_after_a_space():
    before, current = words_before_cursor("exec op ")
    assert [w.value for w in before] == ["exec", "op"] and current.raw == "" and current.start == 8


def test_shell_split_says_what_to_do_about_an_open_quote():
    assert shell_split("title='a b' limit=2") == ["title=a b", "limit=2"]
    with pytest.raises(ArgTextError, match="close the quote"):
        shell_split("title='a b")


@pytest.mark.parametrize(("value", "quoted"), [("todo", "todo"), ("in progress", "'in progress'"), ("", "''"), ("it's", "'it'\"'\"'s'")])
def test_quote_only_when_a_shell_would_need_it(value, quoted):
    assert quote(value) == quoted


def styles(line: str) -> list[tuple[str, str]]:
    return [(style, text) for style, text in ReplLexer().lex_document(Document(line))(0) if text.strip()]


def test_the_lexer_marks_command_path_names_and_values():
    assert styles('exec onto.task.create title="a b" priority=2') == [
        ("class:command", "exec"),
        ("class:path", "onto.task.create"),
        ("class:arg-name", "title"),
        ("class:operator", "="),
        ("class:value", '"a b"'),
        ("class:arg-name", "priority"),
        ("class:operator", "="),
        ("class:value", "2"),
    ]


def test_the_lexer_marks_unknown_commands_and_json():
    assert styles("frob x")[0] == ("class:unknown", "frob")
    assert styles('exec op {"a": 1}')[-1] == ("class:json", '{"a": 1}')


def test_the_lexer_keeps_every_character():
    line = '  exec   op  a="x y"  '
    assert "".join(text for _, text in ReplLexer().lex_document(Document(line))(0)) == line
