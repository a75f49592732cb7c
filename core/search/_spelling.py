"""Typo correction against the words an index holds.

A query word that no op has ("taks", "documnet") is looked up among the
index's own words one edit away (a letter dropped, added, changed, or two
neighbours swapped), found through their one-letter deletions (the SymSpell
idea: a word and its typo share a deletion). The most common candidate wins.
Short words are left alone: at three letters, one edit reaches too many words.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

MIN_LENGTH = 4
MAX_LENGTH = 40
"""Longer words are not corrected, nor corrected to: their deletions cost their length squared (a catalogue's
million-letter word took minutes and gigabytes on the first search), and no one mistypes such a word."""


def _deletions(word: str) -> set[str]:
    return {word[:i] + word[i + 1 :] for i in range(len(word))}


def _one_edit_apart(a: str, b: str) -> bool:
    """Optimal string alignment distance of at most one (a swap of neighbours counts as one)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        diff = [i for i in range(len(a)) if a[i] != b[i]]
        return len(diff) == 1 or (len(diff) == 2 and diff[1] == diff[0] + 1 and a[diff[0]] == b[diff[1]] and a[diff[1]] == b[diff[0]])
    short, long = (a, b) if len(a) < len(b) else (b, a)
    return any(long[:i] + long[i + 1 :] == short for i in range(len(long)))


class Speller:
    """Corrects words against a vocabulary of known words, each with how many ops use it."""

    def __init__(self, counts: Counter[str]):
        self.counts = counts
        self._deletion_table: dict[str, list[str]] | None = None
        self._longest: int | None = None  # the longest known word's length, found on the first word to correct

    @property
    def _by_deletion(self) -> dict[str, list[str]]:
        """Known words by their one-letter deletions, made on the first word to correct: most requests have none."""
        if self._deletion_table is None:
            table: dict[str, list[str]] = {}
            for word in self.counts:
                if MIN_LENGTH <= len(word) <= MAX_LENGTH and word.isalpha():
                    for key in _deletions(word) | {word}:
                        table.setdefault(key, []).append(word)
            self._deletion_table = table
        return self._deletion_table

    def pack(self) -> dict[str, int]:
        return dict(self.counts)

    @classmethod
    def unpacked(cls, counts: dict[str, int]) -> Speller:
        return cls(Counter({str(word): int(count) for word, count in counts.items()}))

    @classmethod
    def of(cls, documents: Iterable[Iterable[str]]) -> Speller:
        counts: Counter[str] = Counter()
        for words in documents:
            counts.update(set(words))
        return cls(counts)

    def correct(self, word: str) -> str | None:
        """The known word ``word`` was probably meant as, or None (known already, too short, or no candidate)."""
        if word in self.counts or not MIN_LENGTH <= len(word) <= MAX_LENGTH + 1 or not word.isalpha():
            return None
        if self._longest is None:
            self._longest = max(map(len, self.counts), default=0)
        if len(word) > self._longest + 1:
            # No typo of a known word; its one-letter deletions would be its length squared in characters
            # (a pasted blob of 60,000 letters: 3.6 GB).
            return None
        candidates: set[str] = set()
        for key in _deletions(word) | {word}:
            candidates.update(self._by_deletion.get(key, ()))
        found = [c for c in candidates if _one_edit_apart(word, c)]
        if not found:
            return None
        return max(found, key=lambda c: (self.counts[c], c))
