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
    """Term -> the terms of every group it belongs to (itself excluded).

    The groups are kept as they are, with each term's groups, and a term's
    related terms are put together when it is first looked up: a query
    looks up a few, and the search index cache then holds the groups
    (about a seventh of the JSON the whole table took, read by every
    ``opgate search``; docs/performance.md).
    """

    def __init__(self, groups: Iterable[str]):
        self._set_groups([sorted(set(terms(group))) for group in groups])

    def _set_groups(self, groups: list[list[str]]) -> None:
        self._groups = groups
        self._member_of: dict[str, list[int]] = {}
        for number, group in enumerate(groups):
            for member in group:
                self._member_of.setdefault(member, []).append(number)
        self._related: dict[str, tuple[str, ...]] = {}

    def pack(self) -> list[list[str]]:
        """The groups of stemmed terms as JSON values: the search index cache keeps them, so a process reading the index stems no group."""
        return [list(group) for group in self._groups]

    @classmethod
    def unpacked(cls, groups: list[list[str]]) -> RelatedTerms:
        if not isinstance(groups, list) or not all(isinstance(group, list) for group in groups):
            raise TypeError("the related-word groups are not a list of lists")
        related = cls.__new__(cls)
        related._set_groups(groups)
        return related

    def __len__(self) -> int:
        return len(self._member_of)

    def of(self, term: str) -> tuple[str, ...]:
        found = self._related.get(term)
        if found is None:
            numbers = self._member_of.get(term)
            if numbers is None:
                return ()
            others = {other for number in numbers for other in self._groups[number]}
            others.discard(term)
            found = self._related[term] = tuple(sorted(others))
        return found

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
