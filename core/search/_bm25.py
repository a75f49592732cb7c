"""BM25F: BM25 over several fields of a document, each with its own weight.

Following Robertson and Zaragoza ("The Probabilistic Relevance Framework:
BM25 and Beyond", 2009): a term's frequency in each field is normalised by
that field's length, weighted, summed into one pseudo-frequency, and only
then saturated with k1. With one field this is plain Okapi BM25.

Everything that does not depend on the query (the saturated weight of each
term in each document) is computed when the index is built, so a query only
walks the posting lists of its own terms and adds up ``idf * weight``. A
word scored together with its related words (see :meth:`BM25Index.scores`)
gets the same treatment through :meth:`BM25Index.prepare`.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from operator import truediv
from typing import Any

from .._record import record
from ._packed import PostingList, pack, posting_list, unpack
from ._sums import weighted_sums

# Robertson's usual defaults: k1 in [1.2, 2.0], b = 0.75.
DEFAULT_K1 = 1.2
DEFAULT_B = 0.75
# Stand-in sets combined at query time and kept for later queries (a few MB at most at 100,000 ops).
RECENT_COMBINED = 64


@record(frozen=True)
class Field:
    """A field's weight (how much one occurrence counts) and length normalisation ``b``."""

    weight: float = 1.0
    b: float = DEFAULT_B


class BM25Index:
    """An inverted index from term to its postings: document ids with saturated weights (and raw frequencies)."""

    def __init__(self, documents: Sequence[Mapping[str, Sequence[str]]], fields: Mapping[str, Field], *, k1: float = DEFAULT_K1):
        self.size = len(documents)
        self.k1 = k1
        average = {name: (sum(len(d.get(name, ())) for d in documents) / self.size if self.size else 0.0) or 1.0 for name in fields}
        pseudo: dict[str, dict[int, float]] = {}
        for doc_id, document in enumerate(documents):
            for name, field in fields.items():
                field_terms = document.get(name, ())
                if not field_terms:
                    continue
                norm = field.weight / (1.0 - field.b + field.b * len(field_terms) / average[name])
                for term, count in Counter(field_terms).items():
                    postings = pseudo.setdefault(term, {})
                    postings[doc_id] = postings.get(doc_id, 0.0) + count * norm
        # Per term: (doc ids, saturated weights, raw pseudo-frequencies). The
        # saturated weights serve a word scored alone; the raw frequencies, a
        # word scored together with its stand-ins.
        table = {term: posting_list(postings.keys(), [tf / (k1 + tf) for tf in postings.values()], postings.values()) for term, postings in pseudo.items()}
        self._set(table, {}, None)

    def _set(self, table: dict[str, PostingList], combined: dict[tuple[tuple[str, float], ...], tuple[float, PostingList]], unseen: float | None) -> None:
        self.postings = table
        self.idf: Mapping[str, float] = _PerTerm(table, lambda postings: self._idf(len(postings[0])))
        self._best: Mapping[str, float] = _PerTerm(table, lambda postings: max(postings[1]))
        self._combined = combined
        self._recent: dict[tuple[tuple[str, float], ...], tuple[float, PostingList]] = {}
        # A word no document has is scored as if one document matched it as
        # strongly as any document matches any word: it still counts against
        # every document when a score is compared with what was possible.
        self._unseen = unseen if unseen is not None else self._idf(0) * max(self._best.values(), default=1.0)

    def _idf(self, document_frequency: int) -> float:
        # The "+1" form (as in Lucene) stays positive for terms in over half the documents.
        return math.log(1.0 + (self.size - document_frequency + 0.5) / (document_frequency + 0.5))

    def scores(self, query: Iterable[Mapping[str, float]]) -> dict[int, float]:
        """BM25F score (without the constant ``k1 + 1``) of every document matching a query.

        The query is a list of alternatives, one set per query word: the word
        with its weight and, at lower weights, words that may stand in for it.
        As in Lucene's synonym queries, a word and its stand-ins are scored as
        one term: their occurrences add up (each scaled by its weight relative
        to the word's) before saturation, and the IDF is that of the most
        common of them. A document holding both is not counted twice.
        """
        return weighted_sums((ids, saturated, weight) for _, ids, saturated, weight in self.query_lists(query))

    def query_lists(self, query: Iterable[Mapping[str, float]]) -> list[tuple[Any, Any, Any, float]]:
        """The posting lists a query walks, in the order their products are summed: ``(key, ids, saturated weights, query weight)``.

        ``key`` names the list (a term, or a sorted tuple of stand-ins with
        their shares); a document's score is the sum, in this order, of
        ``query weight * saturated weight`` over the lists that hold it.
        """
        found = []
        for alternatives in query:
            present = [(term, weight) for term, weight in alternatives.items() if term in self.postings]
            if not present:
                continue
            query_weight = max(alternatives.values())
            if len(present) == 1 and present[0][1] == query_weight:
                term = present[0][0]
                weight = query_weight * self.idf[term]
                ids, saturated = self.postings[term][:2]
                found.append((term, ids, saturated, weight))
            else:
                shares = tuple(sorted((term, term_weight / query_weight) for term, term_weight in present))
                idf, (ids, saturated) = self._combined.get(shares) or self._combined_now(shares)
                found.append((shares, ids, saturated, query_weight * idf))
        return found

    def prepared_lists(self) -> Iterator[tuple[Any, Any, Any]]:
        """Every list a query can walk without combining one then: ``(key, ids, saturated weights)``, keyed as :meth:`query_lists` keys them."""
        for term, postings in self.postings.items():
            yield term, postings[0], postings[1]
        for shares, (_, postings) in self._combined.items():
            yield shares, postings[0], postings[1]

    def prepare(self, alternatives: Mapping[str, float]) -> None:
        """Precomputes the postings of a word scored with its stand-ins (weights relative to the word's 1.0).

        A query that uses the same set then costs no more than a plain word.
        """
        present = tuple(sorted((term, weight) for term, weight in alternatives.items() if term in self.postings))
        if len(present) > 1:
            self._combined[present] = self._combine(present)

    def _combined_now(self, shares: tuple[tuple[str, float], ...]) -> tuple[float, PostingList]:
        """A set of stand-ins no build prepared, combined once and kept for the next query (never packed)."""
        found = self._recent.get(shares)
        if found is None:
            if len(self._recent) >= RECENT_COMBINED:
                self._recent.clear()
            found = self._recent[shares] = self._combine(shares)
        return found

    def _combine(self, shares: tuple[tuple[str, float], ...]) -> tuple[float, PostingList]:
        combined = weighted_sums((self.postings[term][0], self.postings[term][2], share) for term, share in shares)
        k1 = self.k1
        # Ids ascending, like every other list, so that one document's weight can be found by bisection.
        ordered = sorted(combined)
        frequencies = list(map(combined.__getitem__, ordered))
        # tf / (k1 + tf), divided in C: a query that combines a set pays for it before its first result.
        return min(self.idf[term] for term, _ in shares), posting_list(ordered, list(map(truediv, frequencies, map(k1.__add__, frequencies))))

    def best_weight(self, term: str) -> float:
        """The highest score one occurrence-weighted term gives any document (``idf * best saturation``)."""
        best = self._best.get(term)
        return self._unseen if best is None else self.idf[term] * best

    # -- the cache ------------------------------------------------------------------

    def pack(self) -> tuple[dict[str, Any], dict[str, bytes]]:
        """What :meth:`unpacked` needs: small values as JSON, posting lists as packed arrays."""
        keys = list(self._combined)
        meta = {"size": self.size, "k1": self.k1, "unseen": self._unseen, "combined": [[list(map(list, k)), self._combined[k][0]] for k in keys]}
        return meta, {**pack(self.postings, "words"), **pack({str(i): self._combined[k][1] for i, k in enumerate(keys)}, "combined")}

    @classmethod
    def unpacked(cls, meta: dict[str, Any], read: Any) -> BM25Index:
        index = cls.__new__(cls)
        index.size, index.k1 = int(meta["size"]), float(meta["k1"])
        combined_lists = unpack(read, "combined")
        combined = {tuple((str(t), float(w)) for t, w in key): (float(idf), combined_lists[str(i)]) for i, (key, idf) in enumerate(meta["combined"])}
        index._set(unpack(read, "words"), combined, float(meta["unseen"]))
        return index


class _PerTerm(Mapping[str, float]):
    """A value of each term's posting lists (its IDF, its best weight), worked out when the term is first looked up.

    A query looks up a few terms; working out every term's when a cached
    index is read touched every posting list (see ``_packed.PackedTable``).
    """

    __slots__ = ("_known", "_of", "_table")

    def __init__(self, table: Mapping[str, PostingList], of: Callable[[PostingList], float]):
        self._table = table
        self._of = of
        self._known: dict[str, float] = {}

    def __getitem__(self, term: str) -> float:
        found = self._known.get(term)
        if found is None:
            found = self._known[term] = self._of(self._table[term])
        return found

    def __contains__(self, term: object) -> bool:
        return term in self._table

    def __iter__(self) -> Iterator[str]:
        return iter(self._table)

    def __len__(self) -> int:
        return len(self._table)
