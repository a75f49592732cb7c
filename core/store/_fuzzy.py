"""Typo-tolerant matching of typed words against stored names.

Pure functions, no database: the backend asks here which vocabulary terms are
close enough to a typed word, and how well a candidate's name answers the
whole query.
"""

from __future__ import annotations

import re
import unicodedata

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """Lower-case words without accents, split like the search index splits them."""
    decomposed = unicodedata.normalize("NFKD", text or "")
    plain = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return _WORD.findall(plain.lower())


def allowed_typos(word: str) -> int:
    """How many edits a word may be off by: none for tiny words, two for long ones."""
    if len(word) < 3:
        return 0
    return 1 if len(word) < 7 else 2


def edit_distance(a: str, b: str, limit: int) -> int | None:
    """Edits (insert, delete, substitute, swap neighbours) from a to b, or None if > limit."""
    if abs(len(a) - len(b)) > limit:
        return None
    if a == b:
        return 0
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        current = [i] + [0] * len(b)
        for j, cb in enumerate(b, 1):
            cost = 0 if ca == cb else 1
            best = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                best = min(best, previous2[j - 2] + 1)
            current[j] = best
        if min(current) > limit:
            return None
        previous2, previous = previous, current
    return previous[-1] if previous[-1] <= limit else None


def close_terms(word: str, vocabulary: list[str], cap: int = 12) -> list[str]:
    """Vocabulary terms within ``allowed_typos(word)`` edits, closest first."""
    limit = allowed_typos(word)
    if limit == 0:
        return []
    scored = []
    for term in vocabulary:
        if term != word:
            distance = edit_distance(word, term, limit)
            if distance is not None:
                scored.append((distance, term))
    scored.sort()
    return [term for _, term in scored[:cap]]


def word_credit(query_word: str, name_words: list[str]) -> float:
    """How well the best word of a name answers one typed word (0 to 1)."""
    best = 0.0
    for word in name_words:
        if word == query_word:
            return 1.0
        if len(query_word) >= 2 and word.startswith(query_word):
            best = max(best, 0.9)
            continue
        distance = edit_distance(query_word, word, allowed_typos(query_word))
        if distance:
            best = max(best, 1.0 - 0.25 * distance)
    return best


def name_score(query: str, name: str) -> float:
    """How well a display name answers the whole query (0 to 1).

    Mostly per-word credit, plus a little overall string likeness so that of
    two names matching the same words the closer one wins.
    """
    query_words, name_words = words(query), words(name)
    if not query_words:
        return 0.0
    credit = sum(word_credit(q, name_words) for q in query_words) / len(query_words)
    from difflib import SequenceMatcher  # here: opening a store for anything but a fuzzy title lookup never needs difflib

    likeness = SequenceMatcher(None, " ".join(query_words), " ".join(name_words)).ratio()
    return 0.85 * credit + 0.15 * likeness
