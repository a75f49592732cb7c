"""The phrase matcher's word boundary is the regular expression's ``[\\w-]``, for every code point.

tests/search/test_search_phrases.py compares whole answers on generated
requests; here the one rule they rest on is checked for all of Unicode
(combining marks, superscript digits, letter-like numerals, CJK, joiners,
the apostrophes and dashes that are not a hyphen), then on requests glued
with those characters.
"""

from __future__ import annotations

import random
import re
import sys

from opgate.core.search._phrases import PhraseMatcher, _joins_a_word

WORD_OR_HYPHEN = re.compile(r"[\w-]")
GLUE = [" ", "-", "_", "'", "\u2019", "\u2010", "\u2011", "\u2013", "\u0301", "\u00b2", "\u00bd", "\u0660", "\u2160", "\u3005", "\u4e00",
        "\u0e01", "\u0903", "\u200d", "\u00a0", "\u00b7", "\U0001d400", "e\u0301", "ß", "ǅ", "\t", ".", "!", "/", "1", "a"]


def test_the_boundary_is_the_patterns_for_every_code_point():
    differing = [hex(code) for code in range(sys.maxunicode + 1) if (WORD_OR_HYPHEN.fullmatch(chr(code)) is not None) != _joins_a_word(chr(code))]
    assert differing == []


def test_requests_glued_with_unusual_characters_read_as_the_pattern():
    phrases = ["done", "wrap up", "café", "naïve", "x²", "re-do", "-x", "y-", "e\u0301"]
    ordered = sorted(set(phrases), key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(p) for p in ordered) + r")(?![\w-])")
    matcher = PhraseMatcher(phrases)
    rng = random.Random(7)
    for _ in range(5000):
        text = "".join(rng.choice(GLUE) + rng.choice([*phrases, "the", "x"])[: rng.randint(0, 8)] for _ in range(rng.randint(0, 5))) + rng.choice(GLUE)
        assert (matcher.search(text) is None) == (pattern.search(text) is None), text
        expected, found = pattern.match(text), matcher.match(text)
        assert (None if expected is None else expected.group(0)) == (None if found is None else found.group(0)), text
