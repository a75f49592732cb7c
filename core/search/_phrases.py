"""Whole-phrase lookup in lower-case text, without compiling a regular expression.

The intent reader asks of each of its word lists whether a request holds one
of the phrases as words of their own: not inside a longer word, not glued to
a hyphen ("re-done" does not say "done"). That is the regular expression
``(?<![\\w-])(?:p1|p2|...)(?![\\w-])``, but compiling those alternations of
hundreds of phrases cost more than a whole search (``re``'s compiler is
Python, and nothing keeps its work between processes). A
:class:`PhraseMatcher` answers the same two questions the reader asks of
such a pattern, ``search`` and ``match``, and gives the same answers
(tests/search/test_search_phrases.py compares them).

A phrase found as words of its own starts where the character before it
does not join a word and ends where the character after it does not. So a
text's :class:`Spans`, every piece of it between such a start and such an
end (up to the longest phrase's length), hold every phrase it says, and each
word list is asked with one set intersection instead of a ``str.find`` per
phrase. The reader cuts a request into spans once and asks all its lists
(removal, reading, 21 state groups, 10 kinds of things) of the same spans.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable


def _joins_a_word(character: str) -> bool:
    """What ``[\\w-]`` matches: a character that would make the phrase part of a longer word."""
    return character == "-" or character == "_" or character.isalnum()


class Spans:
    """The pieces of ``text`` that may be a phrase said as words of their own, up to ``longest`` characters.

    ``starts`` are the offsets a phrase may start at (the text's start, or
    after a character that joins no word), ``ends`` those it may end at.
    """

    __slots__ = ("ends", "pieces", "starts", "text")

    def __init__(self, text: str, longest: int):
        joins = [_joins_a_word(c) for c in text]
        size = len(text)
        self.text = text
        self.starts = [0, *(i + 1 for i in range(size) if not joins[i])]
        self.ends = [*(i for i in range(size) if not joins[i]), size]
        ends = self.ends
        pieces = set()
        for start in self.starts:
            for end in ends[bisect_left(ends, start) : bisect_right(ends, start + longest)]:
                pieces.add(text[start:end])
        self.pieces = pieces


class PhraseMatch:
    """The phrase found at the start of a text (``group(0)``), as a regular expression's match gives it."""

    __slots__ = ("_phrase",)

    def __init__(self, phrase: str):
        self._phrase = phrase

    def group(self, index: int = 0) -> str:
        if index != 0:
            raise IndexError("no such group")
        return self._phrase


def _first(phrases: Iterable[str]) -> str:
    """The phrase a pattern with the longest alternatives first would report (longest, then alphabetical)."""
    return min(phrases, key=lambda p: (-len(p), p))


class PhraseMatcher:
    """A set of lower-case phrases, found in text only as words of their own."""

    __slots__ = ("_set", "longest", "phrases")

    def __init__(self, phrases: Iterable[str]):
        # Longest first: at the start of a text the longest phrase that fits is the one matched.
        self.phrases = tuple(sorted({p.lower() for p in phrases}, key=lambda p: (-len(p), p)))
        self._set = frozenset(self.phrases)
        self.longest = len(self.phrases[0]) if self.phrases else 0

    def spans(self, text: str) -> Spans:
        return Spans(text, self.longest)

    def search(self, text: str) -> PhraseMatch | None:
        """Some phrase that ``text`` holds as words of its own, or None (only whether it is None counts)."""
        return self.search_spans(self.spans(text))

    def search_spans(self, spans: Spans) -> PhraseMatch | None:
        """:meth:`search` over a text's spans (made with a ``longest`` at least this matcher's)."""
        found = self._set.intersection(spans.pieces)
        return PhraseMatch(_first(found)) if found else None

    def says(self, spans: Spans) -> bool:
        """Whether the text of ``spans`` holds one of the phrases as words of its own."""
        return not self._set.isdisjoint(spans.pieces)

    def match(self, text: str) -> PhraseMatch | None:
        """The longest phrase ``text`` starts with as a word of its own, or None."""
        phrases = self._set
        if not phrases:
            return None
        size = len(text)
        longest = self.longest
        # Where a phrase starting at 0 may end, longest first (each is a different prefix).
        for end in range(min(size, longest), -1, -1):
            if (end == size or not _joins_a_word(text[end])) and text[:end] in phrases:
                return PhraseMatch(text[:end])
        return None
