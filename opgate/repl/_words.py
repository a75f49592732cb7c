"""Splitting a line into words the way a shell would, without failing on half-typed ones.

Completion and highlighting see lines that are still being typed
(``title="Draft the``), so :func:`split_words` never raises and keeps each
word's place in the line. Running a line uses :func:`shell_split`, which is
``shlex`` and says so when a quote is left open.
"""

from __future__ import annotations

import re
import shlex
from dataclasses import dataclass

from opgate.core.argtext import ArgTextError

_DOUBLE_QUOTE_ESCAPES = '"\\$`'
_SAFE = re.compile(r"^[\w@%+=:,./-]+$")


@dataclass(frozen=True)
class Word:
    """One word of a line: ``raw`` as typed, ``value`` with quotes and escapes removed."""

    raw: str
    start: int
    value: str
    closed: bool = True

    @property
    def end(self) -> int:
        return self.start + len(self.raw)


def _read_word(text: str, start: int) -> Word:
    value: list[str] = []
    quote: str | None = None
    i = start
    while i < len(text):
        char = text[i]
        if quote:
            if char == quote:
                quote = None
            elif char == "\\" and quote == '"' and i + 1 < len(text) and text[i + 1] in _DOUBLE_QUOTE_ESCAPES:
                i += 1
                value.append(text[i])
            else:
                value.append(char)
        elif char.isspace():
            break
        elif char in "'\"":
            quote = char
        elif char == "\\" and i + 1 < len(text):
            i += 1
            value.append(text[i])
        else:
            value.append(char)
        i += 1
    return Word(text[start:i], start, "".join(value), quote is None)


def split_words(text: str) -> list[Word]:
    """Every word of ``text``; an unclosed quote runs to the end of the line."""
    words: list[Word] = []
    i = 0
    while i < len(text):
        if text[i].isspace():
            i += 1
            continue
        word = _read_word(text, i)
        words.append(word)
        i = word.end
    return words


def words_before_cursor(text_before_cursor: str) -> tuple[list[Word], Word]:
    """The finished words before the cursor, and the word being typed (empty after a space)."""
    words = split_words(text_before_cursor)
    ends_in_space = text_before_cursor[-1:].isspace()
    if not words or (ends_in_space and words[-1].closed):
        return words, Word("", len(text_before_cursor), "")
    return words[:-1], words[-1]


def shell_split(text: str) -> list[str]:
    """``text`` split as a POSIX shell would; an open quote is an :class:`ArgTextError`."""
    try:
        return shlex.split(text, posix=True)
    except ValueError as exc:
        raise ArgTextError(f"cannot read the arguments: {exc} (close the quote, or quote the value as a shell would)") from None


def quote(value: str) -> str:
    """``value`` quoted for the line only when a shell would need it."""
    return value if value and _SAFE.match(value) else shlex.quote(value)
