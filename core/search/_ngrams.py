"""Character trigram TF-IDF with cosine similarity.

Word terms miss what n-grams catch: run-together names ("airqualityforecast"
holds "quality"), inflections the stemmer leaves apart ("analysis" and
"analyze"), and typos. Each word is padded with spaces and cut into its
trigrams, so grams never cross words and a gram at a word's start or end is
told apart from one inside it. Adding 4- and 5-grams was tried: on the
MetaTool dev split it changed recall by less than half a point and cost
twice the query time.

As with BM25, the document side is computed at build time: postings hold each
gram's share of the document's unit-length vector.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from ._packed import PostingList, pack, posting_list, unpack
from ._sums import weighted_sums

GRAM_SIZES = (3,)
_SHORT_POSTINGS = 50


@lru_cache(maxsize=65536)
def _word_grams(word: str) -> tuple[str, ...]:
    padded = f" {word} "
    return tuple(padded[start : start + size] for size in GRAM_SIZES for start in range(len(padded) - size + 1))


def grams(words: Iterable[str]) -> Counter[str]:
    """The n-grams (``GRAM_SIZES``) of each word, counted."""
    counts: Counter[str] = Counter()
    for word in words:
        counts.update(_word_grams(word))
    return counts


class NgramIndex:
    """Cosine similarity between a query's grams and each document's, through an inverted index.

    ``max_share`` drops grams found in more than that share of the documents
    ("ing", "ion"): they weigh little and their posting lists are the
    longest, so keeping them costs time for no better ranking (dropping those
    above 10% changed dev recall by less than half a point either way). Short
    lists cost nothing worth saving, so small catalogues keep every gram.
    """

    def __init__(self, documents: Sequence[Iterable[str]], *, max_share: float = 0.1):
        self.size = len(documents)
        counted = [grams(words) for words in documents]
        frequency: Counter[str] = Counter()
        for counts in counted:
            frequency.update(counts.keys())
        limit = max(_SHORT_POSTINGS, int(max_share * self.size))
        self.idf = {g: math.log((1 + self.size) / (1 + df)) + 1.0 for g, df in frequency.items() if df <= limit}
        postings: dict[str, tuple[list[int], list[float]]] = {}
        for doc_id, counts in enumerate(counted):
            weights = {g: (1.0 + math.log(c)) * self.idf[g] for g, c in counts.items() if g in self.idf}
            norm = math.sqrt(sum(w * w for w in weights.values())) or 1.0
            for gram, weight in weights.items():
                ids, values = postings.setdefault(gram, ([], []))
                ids.append(doc_id)
                values.append(weight / norm)
        self.postings: dict[str, PostingList] = {gram: posting_list(ids, values) for gram, (ids, values) in postings.items()}

    def pack(self) -> tuple[dict[str, Any], dict[str, bytes]]:
        return {"size": self.size, "idf": self.idf}, pack(self.postings, "grams")

    @classmethod
    def unpacked(cls, meta: dict[str, Any], read: Any) -> NgramIndex:
        index = cls.__new__(cls)
        index.size = int(meta["size"])
        index.idf = {str(g): float(v) for g, v in meta["idf"].items()}
        index.postings = unpack(read, "grams")
        return index

    def scores(self, words: Iterable[str]) -> dict[int, float]:
        """Cosine similarity to the query (0..1) of every document sharing a gram with it."""
        return weighted_sums((ids, doc_weights, share) for _, ids, doc_weights, share in self.query_lists(words))

    def query_lists(self, words: Iterable[str]) -> list[tuple[str, Any, Any, float]]:
        """The posting lists of the query's grams, in the order their products are summed: ``(gram, ids, weights, share)``."""
        query = {g: (1.0 + math.log(c)) * self.idf[g] for g, c in grams(words).items() if g in self.idf}
        norm = math.sqrt(sum(w * w for w in query.values()))
        if not norm:
            return []
        return [(gram, *self.postings[gram][:2], weight / norm) for gram, weight in query.items()]
