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

from array import array
from collections.abc import Iterator, Sequence
from functools import lru_cache
from itertools import repeat
from operator import rshift
from typing import Any

from .._record import record
from ._blocks import SHIFT, block_count, block_maxima, for_queries, peak
from ._list_names import OrdersByName, order_name
from ._bm25 import BM25Index, Field
from ._fields import OpText
from ._ngrams import NgramIndex
from ._packed import pack, unpack
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
# Related terms that one op in this many holds together get their stand-in sets prepared at build time for a
# request naming both (at 100,000 ops: 88 sets, about 300 bytes an op; combined at query time they cost 5 to 15 ms).
PAIR_SHARE = 100
# Block maxima of lists combined at query time, kept for later queries (the build makes every other list's).
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
# The terms of this many recent queries are remembered (least recently used out).
QUERY_TERMS_MEMO = 1024


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
        for pair in _held_together(self.words, self.related):
            # A request naming both ("phone number") leaves each out of the other's stand-ins: sets no single word prepares.
            for alternatives in self.related.expand(dict.fromkeys(pair, 1.0)):
                self.words.prepare(alternatives)
        content = [_content_words(t.name, t.summary, t.description, t.phrases) for t in texts]
        self.ngrams = NgramIndex(content)
        self.speller = Speller.of(content)
        self._maxima = {("w", key): block_maxima(ids, weights) for key, ids, weights in self.words.prepared_lists()}
        self._maxima.update((("g", gram), block_maxima(postings[0], postings[1])) for gram, postings in self.ngrams.postings.items())
        self._dense: dict[Any, tuple[Any, Any]] = {}
        self._query_orders: dict[Any, Any] = {}
        self._tops: dict[Any, tuple[Any, ...]] = {}
        self._remember_terms()
        self._heads: dict[Any, dict[int, tuple[float, float | None, float | None]]] = {}
        self._blocks_of: dict[frozenset[int], frozenset[int]] = {}
        self._op_arrays: dict[frozenset[int], Any] = {}

    def pack(self) -> tuple[dict[str, Any], dict[str, bytes]]:
        """The ranker as JSON values and packed posting lists (see :mod:`._packed`); :meth:`unpacked` reads them."""
        words_meta, words = self.words.pack()
        grams_meta, grams = self.ngrams.pack()
        maxima = pack({order_name(key): found for key, found in self._maxima.items()}, "maxima")
        return {"words": words_meta, "grams": grams_meta, "speller": self.speller.pack(), "related": self.related.pack()}, {**words, **grams, **maxima}

    @classmethod
    def unpacked(cls, meta: dict[str, Any], read: Any) -> LexicalRanker:
        ranker = cls.__new__(cls)
        ranker.related = RelatedTerms.unpacked(meta["related"])
        ranker.words = BM25Index.unpacked(meta["words"], read)
        ranker.ngrams = NgramIndex.unpacked(meta["grams"], read)
        ranker.speller = Speller.unpacked(meta["speller"])
        ranker._maxima = OrdersByName(unpack(read, "maxima"), whole=True)
        ranker._dense = {}
        ranker._query_orders = {}
        ranker._tops = {}
        ranker._remember_terms()
        ranker._heads = {}
        ranker._blocks_of = {}
        ranker._op_arrays = {}
        return ranker

    def query_terms(self, query: str) -> dict[str, float]:
        """The query's terms with their weights, a word no op has replaced by the op word it is one typo away from (short requests only, see ``SPELL_UP_TO``).

        Each term counts once; in a long query (``LONG_QUERY`` terms or
        more) by its IDF over the highest IDF among the query's terms (a word
        no op has counts as the rarest). Remembered per query (a search asks
        twice: to score and for the rules), a new dict each time.
        """
        return dict(self._remembered_terms(query))

    def _remember_terms(self) -> None:
        self._remembered_terms = lru_cache(maxsize=QUERY_TERMS_MEMO)(self._terms_of)

    def _terms_of(self, query: str) -> tuple[tuple[str, float], ...]:
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
            return tuple(found.items())
        idf = self.words.idf
        rarest = max(idf.get(term, 0.0) for term in found) or 1.0
        return tuple((term, idf.get(term, rarest) / rarest) for term in found)

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
        word_lists, gram_lists, ceiling = self._query_lists(query)
        blocks = block_count(self.words.size)
        word_maxima = [self._block_maxima(("w", key), ids, weights, blocks) for key, ids, weights, _ in word_lists]
        gram_maxima = [self._block_maxima(("g", key), ids, weights, blocks) for key, ids, weights, _ in gram_lists]
        return QueryLists(
            # No impact orders: with block maxima, the lists are never cut by weight (see ScoredLists.best).
            ScoredLists([(ids, weights, c) for _, ids, weights, c in word_lists], [None] * len(word_lists), maxima=word_maxima, blocks=blocks),
            ScoredLists([(ids, weights, c) for _, ids, weights, c in gram_lists], [None] * len(gram_lists), unit=True, maxima=gram_maxima, blocks=blocks),
            [peak(ids, weights, found)[1] for (_, ids, weights, _), found in zip(word_lists, word_maxima) if len(weights)],
            [peak(ids, weights, found)[1] for (_, ids, weights, _), found in zip(gram_lists, gram_maxima) if len(weights)],
            ceiling,
            _lists_key(word_lists, gram_lists),
        )

    def summed_lists(self, query: str) -> SummedLists:
        """The posting lists ``match`` walks, without the bounds :meth:`lists` adds (for :mod:`._dense`, which adds them all up)."""
        word_lists, gram_lists, ceiling = self._query_lists(query)
        return SummedLists(
            [(ids, weights, c) for _, ids, weights, c in word_lists],
            [(ids, weights, c) for _, ids, weights, c in gram_lists],
            ceiling,
            _lists_key(word_lists, gram_lists),
        )

    def _query_lists(self, query: str) -> tuple[list[tuple[Any, Any, Any, float]], list[tuple[Any, Any, Any, float]], float]:
        """The word and gram lists of ``query`` (``(key, ids, weights, coefficient)`` each, in summation order) and its coverage ceiling."""
        query_terms = self.query_terms(query)
        word_lists = self.words.query_lists(self.related.expand(query_terms))
        gram_lists = self.ngrams.query_lists(_content_words(query))
        ceiling = sum(weight * self.words.best_weight(term) for term, weight in query_terms.items())
        return word_lists, gram_lists, ceiling

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

    def blocks_of(self, ops: frozenset[int]) -> frozenset[int]:
        """The blocks (:mod:`._blocks`) holding these ops; kept per set (the rules keep their lifted sets, tens of thousands of ops for a common verb)."""
        found = self._blocks_of.get(ops)
        if found is None:
            if len(self._blocks_of) >= MAX_TOPS:
                self._blocks_of.clear()
            found = self._blocks_of[ops] = frozenset(map(rshift, ops, repeat(SHIFT)))
        return found

    def op_array(self, ops: frozenset[int]) -> Any:
        """These ops as a numpy array of ids (for :mod:`._dense`); kept per set, as :meth:`blocks_of` keeps their blocks."""
        found = self._op_arrays.get(ops)
        if found is None:
            from ._dense import numpy_module

            np = numpy_module()
            if len(self._op_arrays) >= MAX_TOPS:
                self._op_arrays.clear()
            # 4 bytes an op: a common verb names tens of thousands of ops.
            found = self._op_arrays[ops] = np.fromiter(ops, dtype=np.int32, count=len(ops))
        return found

    def remembered_head(self, key: Any) -> dict[int, tuple[float, float | None, float | None]] | None:
        """Every op at or over a recent query's threshold, with its final, word and gram scores (see :func:`._top.best_prefix`)."""
        return self._heads.get(key)

    def remember_head(self, key: Any, head: dict[int, tuple[float, float | None, float | None]]) -> None:
        if len(self._heads) >= MAX_TOPS:
            self._heads.clear()
        self._heads[key] = head

    def _block_maxima(self, key: Any, ids: Any, weights: Any, blocks: int) -> tuple[Any, Any]:
        """A list's block maxima as queries read them (:func:`._blocks.for_queries`): from the build (a key names one list), else worked out once."""
        found = self._dense.get(key)
        if found is not None:
            return found
        built = self._maxima.get(key)
        if built is not None:
            # Each list made ready for queries once (dense lists are added up in C).
            found = self._dense[key] = for_queries(built, blocks)
            return found
        kept = self._query_orders.get(("maxima", key))
        if kept is None or kept[0] is not ids:
            if len(self._query_orders) >= MAX_QUERY_ORDERS:
                self._query_orders.clear()
            kept = self._query_orders[("maxima", key)] = (ids, for_queries(block_maxima(ids, weights), blocks))
        return kept[1]


@record(frozen=True)
class QueryLists:
    """A query's word and gram lists, a document at the peak of each, and the coverage ceiling (see :meth:`LexicalMatch.coverage`)."""

    words: ScoredLists
    grams: ScoredLists
    word_peaks: list[int]
    gram_peaks: list[int]
    ceiling: float
    key: tuple[tuple[tuple[Any, float], ...], tuple[tuple[Any, float], ...]]
@record(frozen=True)
class SummedLists:
    """A query's word and gram lists (``(ids, weights, coefficient)`` each, in summation order), the coverage ceiling and the lists' key (as :class:`QueryLists` has them)."""

    words: list[tuple[Any, Any, float]]
    grams: list[tuple[Any, Any, float]]
    ceiling: float
    key: tuple[tuple[tuple[Any, float], ...], tuple[tuple[Any, float], ...]]


def _lists_key(word_lists: list[tuple[Any, Any, Any, float]], gram_lists: list[tuple[Any, Any, Any, float]]) -> tuple[tuple[tuple[Any, float], ...], tuple[tuple[Any, float], ...]]:
    """What names a query's lists: each list's key and coefficient (the heads and tops of recent queries are kept under it)."""
    return tuple((key, c) for key, _, _, c in word_lists), tuple((key, c) for key, _, _, c in gram_lists)


def _held_together(index: BM25Index, related: RelatedTerms) -> Iterator[tuple[str, str]]:
    """Pairs of related terms that at least 1 / ``PAIR_SHARE`` of the ops hold both of: requests name them together."""
    for term, postings in index.postings.items():
        for other in related.of(term):
            if other > term and other in index.postings:
                held = len(set(postings[0]).intersection(index.postings[other][0]))
                if held and held * PAIR_SHARE >= index.size:
                    yield term, other


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
