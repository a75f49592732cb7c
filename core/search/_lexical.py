"""The default ranker: BM25F over words, fused with character n-grams.

Two views of the same text catch different things. BM25F over stemmed words
(with related-word expansion) is precise; n-gram cosine catches run-together
names, morphology the stemmer misses, and typos. Each ranker's scores are
divided by its best score for the query, then mixed 70/30: the word ranker
leads, the n-grams break its ties and fill its gaps. (On the MetaTool dev
split any mix from 60/40 to 80/20 lands within half a point.)

What each part is worth there, as R@5 (plain BM25 over name and description
gets 60.0): BM25F over fields 63.8; with related words 69.1; with trigrams
too 69.4. The field weights below barely matter on that split (any name
weight from 1 to 3 stays within a point), so they are the usual values.

A query is read as a set of words, each counted once: a request that says
"task" three times asks about one thing, and letting the repeats count
triple lets one word outweigh the rest (MetaTool dev R@5 69.6 -> 69.7; long
multi-sentence requests made from dev queries, 56.0 -> 57.7). A long request
(``LONG_QUERY`` distinct words or more) is mostly scene-setting: each of its
words counts in proportion to its IDF, so the rare words that name the tool
lead and the common ones ("help", "need", "find") fade (dev 70.3 -> 70.5,
long requests 58.6 -> 59.2). k1 = 1.6 and a lighter length normalisation
for descriptions (b = 0.4: a long description is long because it documents
parameters and results, not because it is about many things) took dev from
69.7 to 70.3.
"""

from __future__ import annotations

import json
from array import array
from collections.abc import Iterator, Sequence
from typing import Any

from .._record import record
from ._bm25 import BM25Index, Field
from ._fields import OpText
from ._ngrams import NgramIndex
from ._packed import impact_order, pack, unpack
from ._pruned import ScoredLists
from ._related import RelatedTerms, default_related_terms
from ._spelling import Speller
from ._tokens import STOPWORDS, split_joined, term_of, terms, words

# Weighed by role (see _fields): what an op does counts most, what it takes
# half, how to use it not at all. The name says most per word; search phrases
# are what people call the op, so they count as much as its summary. The
# description's plain sentences are one field; its guidance is left out.
FIELDS = {
    "name": Field(weight=2.0),
    "summary": Field(weight=1.0),
    "description": Field(weight=1.0, b=0.4),
    "phrases": Field(weight=1.0),
    "arguments": Field(weight=0.5),
    "upstream": Field(weight=0.5),
    "tags": Field(weight=1.0),
}
NGRAM_SHARE = 0.3
# Impact orders of lists combined at query time, kept for later queries (the build orders every other list).
MAX_QUERY_ORDERS = 256
# The ops at the top of each ranker for recent queries: what divides their scores (typed arrays, up to about 50 KB each).
MAX_TOPS = 512
K1 = 1.6
# From this many distinct words on, a request's words count by their IDF.
LONG_QUERY = 8
# Typos are corrected in requests of fewer words than this. In a longer one a
# word the catalogue lacks is mostly an everyday word ("wife", "bring"), and
# its nearest catalogue word ("wide", "bing") leads the ranking astray
# (long requests made from MetaTool dev queries, R@5 59.2 -> 59.6).
SPELL_UP_TO = 12


def _content_words(*texts: str) -> list[str]:
    return [w for text in texts for w in words(text) if w not in STOPWORDS]


@record(frozen=True)
class LexicalMatch:
    """Scores of one query. ``fused`` is relative (the best document has 1.0); :meth:`coverage` is absolute."""

    fused: dict[int, float]
    word_scores: dict[int, float]
    gram_scores: dict[int, float]
    ceiling: float

    def coverage(self, doc_id: int) -> float:
        """How much of the query a document answers, 0..1: its word score over the best a document could reach.

        "The best" is, per query term, the strongest posting of that term in
        the whole catalogue, so an op that is the best match for every word
        of the query scores 1. Words no op has count against every op.

        The squared n-gram cosine stands in when it says more, so a typo
        does not sink a good match. Squared, because a short query shares a
        trigram or two with many unrelated ops (cosine 0.3 for "plorb" and
        "deployment"): near-identical text keeps its weight, a few shared
        letters lose most of theirs.
        """
        words = min(1.0, self.word_scores.get(doc_id, 0.0) / self.ceiling) if self.ceiling else 0.0
        grams = self.gram_scores.get(doc_id, 0.0)
        return max(words, grams * grams)


class LexicalRanker:
    """Ranks documents (an op's :class:`OpText` each) for a free-text query."""

    def __init__(self, texts: Sequence[OpText], related: RelatedTerms | None = None):
        self.related = related if related is not None else default_related_terms()
        vocabulary = frozenset(w for t in texts for w in _content_words(t.summary, t.description, t.details, t.phrases) if len(w) > 2)
        pieces_of: dict[str, tuple[str, ...]] = {}
        documents = [
            {
                "name": terms(t.name) + _joined_terms(t.name, vocabulary, pieces_of),
                "summary": terms(t.summary),
                "description": terms(t.description) + terms(t.details),
                "phrases": terms(t.phrases),
                "arguments": [term for piece in t.arguments for term in terms(piece)],
                "upstream": terms(t.upstream),
                "tags": terms(t.tags),
            }
            for t in texts
        ]
        self.words = BM25Index(documents, FIELDS, k1=K1)
        for term in list(self.words.postings):
            if self.related.of(term):
                self.words.prepare(self.related.expand({term: 1.0})[0])
        content = [_content_words(t.name, t.summary, t.description, t.phrases) for t in texts]
        self.ngrams = NgramIndex(content)
        self.speller = Speller.of(content)
        self._orders = {("w", key): impact_order(weights) for key, _, weights in self.words.prepared_lists()}
        self._orders.update((("g", gram), impact_order(postings[1])) for gram, postings in self.ngrams.postings.items())
        self._query_orders: dict[Any, Any] = {}
        self._tops: dict[Any, tuple[Any, ...]] = {}

    def pack(self) -> tuple[dict[str, Any], dict[str, bytes]]:
        """The ranker as JSON values and packed posting lists (see :mod:`._packed`); :meth:`unpacked` reads them."""
        words_meta, words = self.words.pack()
        grams_meta, grams = self.ngrams.pack()
        orders = pack({_order_name(key): (order,) for key, order in self._orders.items()}, "orders")
        return {"words": words_meta, "grams": grams_meta, "speller": self.speller.pack(), "related": self.related.pack()}, {**words, **grams, **orders}

    @classmethod
    def unpacked(cls, meta: dict[str, Any], read: Any) -> LexicalRanker:
        ranker = cls.__new__(cls)
        ranker.related = RelatedTerms.unpacked(meta["related"])
        ranker.words = BM25Index.unpacked(meta["words"], read)
        ranker.ngrams = NgramIndex.unpacked(meta["grams"], read)
        ranker.speller = Speller.unpacked(meta["speller"])
        ranker._orders = _OrdersByName(unpack(read, "orders"))
        ranker._query_orders = {}
        ranker._tops = {}
        return ranker

    def query_terms(self, query: str) -> dict[str, float]:
        """The query's terms with their weights, a word no op has replaced by the op word it is one typo away from (short requests only, see ``SPELL_UP_TO``).

        Each term counts once; in a long query (``LONG_QUERY`` terms or
        more) by its IDF over the highest IDF among the query's terms (a word
        no op has counts as the rarest).
        """
        found: dict[str, float] = {}
        query_words = words(query)
        correct = len(query_words) < SPELL_UP_TO
        for word in query_words:
            term = term_of(word)
            if term is None:
                continue
            if correct and term not in self.words.postings and not self.related.of(term):
                fixed = self.speller.correct(word)
                term = (term_of(fixed) or term) if fixed else term
            found[term] = 1.0
        if len(found) < LONG_QUERY:
            return found
        idf = self.words.idf
        rarest = max(idf.get(term, 0.0) for term in found) or 1.0
        return {term: idf.get(term, rarest) / rarest for term in found}

    def match(self, query: str) -> LexicalMatch:
        """Every document that shares a term or a gram with ``query``, scored."""
        query_terms = self.query_terms(query)
        expanded = self.related.expand(query_terms)
        word_scores = self.words.scores(expanded)
        gram_scores = self.ngrams.scores(_content_words(query))
        fused = _mix(word_scores, 1.0 - NGRAM_SHARE, gram_scores, NGRAM_SHARE)
        ceiling = sum(weight * self.words.best_weight(term) for term, weight in query_terms.items())
        return LexicalMatch(fused, word_scores, gram_scores, ceiling)

    def lists(self, query: str) -> QueryLists:
        """The posting lists ``match`` walks, for scoring only the documents that can reach the top (see :mod:`._pruned`)."""
        query_terms = self.query_terms(query)
        word_lists = self.words.query_lists(self.related.expand(query_terms))
        gram_lists = self.ngrams.query_lists(_content_words(query))
        word_orders = [self._order(("w", key), weights) for key, _, weights, _ in word_lists]
        gram_orders = [self._order(("g", key), weights) for key, _, weights, _ in gram_lists]
        ceiling = sum(weight * self.words.best_weight(term) for term, weight in query_terms.items())
        return QueryLists(
            ScoredLists([(ids, weights, c) for _, ids, weights, c in word_lists], word_orders),
            ScoredLists([(ids, weights, c) for _, ids, weights, c in gram_lists], gram_orders, unit=True),
            [ids[order[0]] for (_, ids, _, _), order in zip(word_lists, word_orders) if len(order)],
            [ids[order[0]] for (_, ids, _, _), order in zip(gram_lists, gram_orders) if len(order)],
            ceiling,
            (tuple((key, c) for key, _, _, c in word_lists), tuple((key, c) for key, _, _, c in gram_lists)),
        )

    def remembered_tops(self, key: Any) -> tuple[dict[int, float], dict[int, float], float | None] | None:
        """The ops at the top of the word and gram scores of a query with these lists, if worked out lately, and the gram ceiling of the rest."""
        found = self._tops.get(key)
        if found is None:
            return None
        word_ids, word_scores, gram_ids, gram_scores, ceiling = found
        return dict(zip(word_ids, word_scores)), dict(zip(gram_ids, gram_scores)), ceiling

    def remember_tops(self, key: Any, words: dict[int, float], grams: dict[int, float], gram_ceiling: float | None = None) -> None:
        if len(self._tops) >= MAX_TOPS:
            self._tops.clear()
        # As typed arrays: up to a few thousand ops a query (see _top.KEPT_GRAMS), 12 bytes each.
        self._tops[key] = (array("i", words), array("d", words.values()), array("i", grams), array("d", grams.values()), gram_ceiling)

    def _order(self, key: Any, weights: Any) -> Any:
        """A list's impact order (:func:`._packed.impact_order`): from the build, or worked out once for a list combined at query time."""
        found = self._orders.get(key)
        if found is None or len(found) != len(weights):
            found = self._query_orders.get(key)
            if found is None or len(found) != len(weights):
                if len(self._query_orders) >= MAX_QUERY_ORDERS:
                    self._query_orders.clear()
                found = self._query_orders[key] = impact_order(weights)
        return found


def _order_name(key: tuple[str, Any]) -> str:
    """A list's key as a packed table's term: ``g`` and the gram, or ``w`` and the word key in JSON (a term, or stand-ins with their shares)."""
    kind, name = key
    return kind + (name if kind == "g" else json.dumps(name, separators=(",", ":")))


class _OrdersByName:
    """Impact orders read from the cache, looked up by their packed name.

    A key becomes a name when it is looked up (a few per query) instead of
    every one of thousands of names being parsed back into a key when the
    index is read.
    """

    def __init__(self, by_name: dict[str, tuple[Any, ...]]):
        self._by_name = by_name

    def get(self, key: tuple[str, Any]) -> Any:
        columns = self._by_name.get(_order_name(key))
        return None if columns is None else columns[0]

    def items(self) -> Iterator[tuple[tuple[str, Any], Any]]:
        return ((_order_key(name), columns[0]) for name, columns in self._by_name.items())


def _order_key(name: str) -> tuple[str, Any]:
    if name[0] == "g":
        return "g", name[1:]
    key = json.loads(name[1:])
    return "w", key if isinstance(key, str) else tuple((str(term), float(share)) for term, share in key)


@record(frozen=True)
class QueryLists:
    """A query's word and gram lists, a document at the peak of each, and the coverage ceiling (see :meth:`LexicalMatch.coverage`)."""

    words: ScoredLists
    grams: ScoredLists
    word_peaks: list[int]
    gram_peaks: list[int]
    ceiling: float
    key: tuple[tuple[tuple[Any, float], ...], tuple[tuple[Any, float], ...]]
def _joined_terms(name: str, vocabulary: frozenset[str], pieces_of: dict[str, tuple[str, ...]]) -> tuple[str, ...]:
    """Terms of the words run together in a name ("wordcloud" -> word, cloud), split by the catalogue's vocabulary.

    ``pieces_of`` keeps each word's split for the rest of the build: names repeat their words.
    """
    found: list[str] = []
    for word in words(name):
        pieces = pieces_of.get(word)
        if pieces is None:
            pieces = pieces_of[word] = tuple(t for t in map(term_of, split_joined(word, vocabulary)) if t is not None)
        found.extend(pieces)
    return tuple(found)


def _mix(first: dict[int, float], first_share: float, second: dict[int, float], second_share: float) -> dict[int, float]:
    """``share * score / best score`` of each ranker, summed per document."""
    first_best = max(first.values(), default=0.0)
    first_scale = first_share / first_best if first_best > 0.0 else 0.0
    # Products in C (map), the same additions in the same order: bit-identical to a plain loop.
    mixed = dict(zip(first.keys(), map(first_scale.__mul__, first.values())))
    second_best = max(second.values(), default=0.0)
    if second_best > 0.0:
        second_scale = second_share / second_best
        get = mixed.get
        for doc_id, product in zip(second.keys(), map(second_scale.__mul__, second.values())):
            mixed[doc_id] = get(doc_id, 0.0) + product
    return mixed
