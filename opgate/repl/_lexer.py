"""Highlighting a REPL line: the command, the op path, argument names and their values."""

from __future__ import annotations

from collections.abc import Callable

from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.lexers import Lexer
from prompt_toolkit.styles import Style

from ._vocabulary import CALL_COMMANDS, COMMANDS, PATH_COMMANDS
from ._words import Word, split_words

STYLE = Style.from_dict(
    {
        "command": "bold ansiblue",
        "unknown": "ansired",
        "path": "ansicyan",
        "arg-name": "ansiyellow",
        "operator": "ansibrightblack",
        "value": "ansigreen",
        "json": "ansimagenta",
        "prompt": "bold",
        "prompt.path": "bold ansicyan",
        "bottom-toolbar": "noreverse bg:ansibrightblack fg:ansiwhite",
    }
)


def _argument(word: Word) -> StyleAndTextTuples:
    key, sep, value = word.raw.partition("=")
    if not sep:
        return [("class:value", word.raw)]
    return [("class:arg-name", key), ("class:operator", "="), ("class:value", value)]


def _line(text: str) -> StyleAndTextTuples:
    words = split_words(text)
    if not words:
        return [("", text)]
    command = words[0].value
    fragments: StyleAndTextTuples = []
    position = 0
    for index, word in enumerate(words):
        fragments.append(("", text[position : word.start]))
        if index == 0:
            fragments.append(("class:command" if command in COMMANDS else "class:unknown", word.raw))
        elif index == 1 and command in PATH_COMMANDS:
            fragments.append(("class:path", word.raw))
        elif command in CALL_COMMANDS and word.raw.startswith("{"):
            fragments.append(("class:json", text[word.start :]))
            return fragments
        elif command in CALL_COMMANDS or command == "batch":
            fragments.extend(_argument(word))
        else:
            fragments.append(("class:value", word.raw))
        position = word.end
    fragments.append(("", text[position:]))
    return fragments


class ReplLexer(Lexer):
    """Styles each line of the buffer as a REPL command line."""

    def lex_document(self, document: Document) -> Callable[[int], StyleAndTextTuples]:
        lines = document.lines

        def get_line(number: int) -> StyleAndTextTuples:
            try:
                return _line(lines[number])
            except Exception:  # highlighting is never worth a broken prompt
                return [("", lines[number] if number < len(lines) else "")]

        return get_line
