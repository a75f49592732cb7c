"""A catalogue's very long word (a pasted blob in a description) costs the speller nothing.

Its one-letter deletions were made for every known word, whatever its
length: a tool whose description held one word of a million letters made
the first search of the session run for minutes and take gigabytes.
"""

from __future__ import annotations

from opgate.core.search._spelling import MAX_LENGTH, Speller


def test_long_words_are_neither_corrected_nor_corrected_to():
    blob = "d" * 5_000
    speller = Speller.of([["task", "document", blob], ["tasks"]])
    assert speller.correct("documnet") == "document"
    assert max(map(len, speller._by_deletion)) <= MAX_LENGTH, "a long word's deletions were made"
    assert speller.correct("d" * 4_999) is None
    assert speller.correct("x" * 100_000) is None
