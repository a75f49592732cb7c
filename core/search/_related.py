"""Query expansion with groups of related general English words.

A request says "purchase" where the catalogue says "buy", "film" where it
says "movie". ``related_words.json`` holds hand-written groups of such words;
a query term also searches for the other terms of its groups, at a lower
weight, so a direct match always counts for more than a related one, and an
op that has both is credited once, for the better of the two.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from functools import lru_cache
from pathlib import Path

from ._tokens import terms

# A related word counts half as much as the word the query used: enough to
# find a tool that shares no word with the request, not enough to outrank one
# that does.
RELATED_WEIGHT = 0.5


class RelatedTerms:
    """Term -> the terms of every group it belongs to (itself excluded)."""

    def __init__(self, groups: Iterable[str]):
        related: dict[str, set[str]] = {}
        for group in groups:
            members = set(terms(group))
            for member in members:
                related.setdefault(member, set()).update(members - {member})
        self._related = {term: tuple(sorted(others)) for term, others in related.items()}

    def pack(self) -> dict[str, list[str]]:
        """The table as JSON values: the search index cache keeps it, so a process reading the index stems no group."""
        return {term: list(others) for term, others in self._related.items()}

    @classmethod
    def unpacked(cls, table: dict[str, list[str]]) -> RelatedTerms:
        if not isinstance(table, dict):
            raise TypeError("the related-word table is not a mapping")
        related = cls.__new__(cls)
        related._related = {term: tuple(others) for term, others in table.items()}
        return related

    def __len__(self) -> int:
        return len(self._related)

    def of(self, term: str) -> tuple[str, ...]:
        return self._related.get(term, ())

    def expand(self, query: Mapping[str, float], weight: float = RELATED_WEIGHT) -> list[dict[str, float]]:
        """One set of alternatives per query term: the term, and its related terms at ``weight`` times its weight.

        A related term that the query also names itself is left to that term.
        """
        expanded = []
        for term, term_weight in query.items():
            alternatives = {term: term_weight}
            for other in self.of(term):
                if other not in query:
                    alternatives[other] = weight * term_weight
            expanded.append(alternatives)
        return expanded


@lru_cache(maxsize=1)
def default_related_terms() -> RelatedTerms:
    """The groups shipped in ``related_words.json``, read once."""
    text = Path(__file__).with_name("related_words.json").read_text(encoding="utf-8")
    return RelatedTerms(json.loads(text)["groups"])
