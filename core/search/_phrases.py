"""Whole-phrase lookup in lower-case text, without compiling a regular expression.

The intent reader asks of each of its word lists whether a request holds one
of the phrases as words of their own: not inside a longer word, not glued to
a hyphen ("re-done" does not say "done"). That is the regular expression
``(?<![\\w-])(?:p1|p2|...)(?![\\w-])``, but compiling those alternations of
hundreds of phrases cost more than a whole search (``re``'s compiler is
Python, and nothing keeps its work between processes). A
:class:`PhraseMatcher` answers the same two questions the reader asks of
such a pattern, ``search`` and ``match``, with ``str.find``, and gives the
same answers (tests/search/test_search_phrases.py compares them).
"""

from __future__ import annotations

from collections.abc import Iterable


def _joins_a_word(character: str) -> bool:
    """What ``[\\w-]`` matches: a character that would make the phrase part of a longer word."""
    return character == "-" or character == "_" or character.isalnum()


class PhraseMatch:
    """The phrase found at the start of a text (``group(0)``), as a regular expression's match gives it."""

    __slots__ = ("_phrase",)

    def __init__(self, phrase: str):
        self._phrase = phrase

    def group(self, index: int = 0) -> str:
        if index != 0:
            raise IndexError("no such group")
        return self._phrase


class PhraseMatcher:
    """A set of lower-case phrases, found in text only as words of their own."""

    __slots__ = ("phrases",)

    def __init__(self, phrases: Iterable[str]):
        # Longest first: at the start of a text the longest phrase that fits is the one matched.
        self.phrases = tuple(sorted({p.lower() for p in phrases}, key=lambda p: (-len(p), p)))

    def _bounded(self, text: str, start: int, end: int) -> bool:
        return (start == 0 or not _joins_a_word(text[start - 1])) and (end == len(text) or not _joins_a_word(text[end]))

    def search(self, text: str) -> PhraseMatch | None:
        """Some phrase that ``text`` holds as words of its own, or None (only whether it is None counts)."""
        for phrase in self.phrases:
            if not phrase:
                continue  # an empty alternative matches only where nothing word-like sits on either side
            at = text.find(phrase)
            while at >= 0:
                if self._bounded(text, at, at + len(phrase)):
                    return PhraseMatch(phrase)
                at = text.find(phrase, at + 1)
        if "" in self.phrases:
            return PhraseMatch("") if any(self._bounded(text, at, at) for at in range(len(text) + 1)) else None
        return None

    def match(self, text: str) -> PhraseMatch | None:
        """The longest phrase ``text`` starts with as a word of its own, or None."""
        for phrase in self.phrases:
            if text.startswith(phrase) and self._bounded(text, 0, len(phrase)):
                return PhraseMatch(phrase)
        return None
