"""SearchIndex: natural-language search over the ops of a registry.

Build once per registry (``SearchIndex.build(registry)``), query many times.
The default ranker is pure Python (:mod:`._lexical`); with the ``semantic``
extra installed, ``semantic=True`` mixes in sentence embeddings
(:mod:`._semantic`).

A query is read (:mod:`._intent`), scored, and then the rules apply
(:mod:`._rules`: the verb's action, safety, state changes). A request for
several ops gets the best op of each part near the top. There is no
confidence cut-off: the answer is the ranking up to the limit, and it is
empty only when none of the best five ops is plausibly related
(:data:`PLAUSIBLE`).

Confidence, in [0, 1], starts from a raw value per hit::

    raw = sqrt(evidence) * (score / best_score) ** 4

``evidence`` is absolute: the share of the query the op answers (its BM25F
score over the best score any op could reach for those words; see
``LexicalMatch.coverage``), or the squared trigram cosine, or with
embeddings a rescaled cosine (``_semantic.cosine_evidence``), whichever is
highest. ``score / best_score`` (against the best op that passes the
filters) brings it down the list. Both exponents were chosen on the MetaTool
dev split by Brier score. The raw value then goes through a monotone map
fitted on the tuning sets (:mod:`._calibration`), so that a pointer at 0.8
is right about 80% of the time, and each hit is capped by the one above it,
so confidence never rises down the list. ``bench/bench_search.py`` prints
the share right by confidence band.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache
from typing import TYPE_CHECKING, Any, NamedTuple

from ..registry._record import OpRecord
from ._calibration import default_calibration
from ._coverage import covered
from ._dense import numpy_module
from ._fields import op_text
from ._hits import NodeHit, SearchHit
from ._intent import Intent, default_intent_reader
from ._lexical import LexicalRanker
from ._nodes import groups_of, rank_groups
from ._order import by_score, lead_first, pruned_then_full
from ._rules import Rules
from ._tokens import terms
from ._top import PRUNE_FROM_OPS, best_prefix

if TYPE_CHECKING:
    from ._semantic import SemanticRanker

Visible = Callable[[OpRecord], bool]

DEFAULT_LIMIT = 10
MAX_LIMIT = 50
# How fast confidence falls with the score relative to the best hit (see above).
RANK_SHARPNESS = 4
# An op that answers less of the query than this is noise (a stray shared
# trigram), not a pointer worth a look. Of the right answers in the MetaTool dev
# top five, 99% have more than seven times this.
MIN_EVIDENCE = 0.01
# With embeddings no op is dropped for its evidence: the fused score already
# ranks by meaning, and an op whose words and cosine say little absolutely
# (cosine under UNRELATED_COSINE) may still be the best pointer there is; its
# confidence says how little. R@5 through gw.search() (centred cosines, shares
# 0.6/0.4) with the floor at 0.01 -> none: MetaTool dev 80.9 -> 82.0, long
# requests made from dev 71.6 -> 72.3, built-in requests' tuning part 97.4 ->
# 98.5; dev stories and the multi-op sets unchanged. The default ranker keeps
# MIN_EVIDENCE.
SEMANTIC_MIN_EVIDENCE = 0.0
# An op must answer at least this much of a request (square root of its
# evidence) for the answer to say anything; below it, nothing is plausibly
# related and the answer is empty (NO_MATCH_IN_CATEGORY inside a group).
PLAUSIBLE = 0.15
# ...among this many best ops (with embeddings, the best by meaning may share few words).
PLAUSIBLE_WINDOW = 5
# search_nodes weighs groups by this many best ops: further down, relevance is
# small and computing it for every matching op would cost most of the time.
NODE_EVIDENCE_OPS = 100
# With embeddings, how much the semantic ranker counts against the lexical one:
# less where the catalogue gives search phrases, which make the lexical ranker
# know the words people use. Session 7, with centred cosines and no evidence
# floor, R@5 through gw.search() at 0.7/0.5 -> 0.6/0.4: MetaTool dev 81.6 ->
# 82.0, long requests made from dev 71.5 -> 72.3, built-in requests' tuning
# part 97.7 -> 98.5 (R@1 74.6 -> 77.2); dev stories and the multi-op sets
# within one query. (Session 4, plain cosines: built-in tuning part 95.4 at
# 0.7, 97.4 at 0.5; MetaTool dev 79.3 at 0.7, 78.2 at 0.5.)
SEMANTIC_SHARE = 0.6
SEMANTIC_SHARE_WITH_PHRASES = 0.4
# A facet's best op joins the top of a request for several things when its
# ranking gives it at least this confidence.
FACET_FLOOR = 0.0
# How many requests (and facets) each index remembers the reading of: an agent repeats itself, and the
# reading is the same for as long as the index lives (it depends on the request and the index's words only).
INTENT_MEMO = 1024


class Ranked(NamedTuple):
    """One op of a ranking, with its confidence, its relevance (for groups) and suggested arguments.

    A named tuple: immutable like a frozen dataclass, and several times
    cheaper to make (a search makes one per op it reads).
    """

    record: OpRecord
    confidence: float
    relevance: float
    suggested_args: dict[str, Any] | None = None


class SearchIndex:
    """Ranked, filtered, paged search over a fixed list of ops."""

    def __init__(self, records: Sequence[OpRecord], lexical: LexicalRanker, semantic: SemanticRanker | None = None, group_summaries: dict[str, str] | None = None):
        self.records = records
        self.lexical = lexical
        self.semantic = semantic
        self.group_summaries = dict(group_summaries or {})
        self._group_sizes = _group_sizes(records, None)
        self.intents = default_intent_reader()
        self.rules = Rules(records, self.intents.state_fields, self._action_terms, self.intents.entity_kinds)
        self.calibration = default_calibration()
        self.prune_from_ops = PRUNE_FROM_OPS
        # The pruned top from dense sums in numpy where it is installed (see _dense); False: block bounds only.
        self.dense_sums = True
        phrased = sum(1 for r in records if r.metadata.search_phrases)
        self.semantic_share = SEMANTIC_SHARE_WITH_PHRASES if records and phrased >= len(records) / 2 else SEMANTIC_SHARE
        self._remember_readings()

    def pack(self) -> dict[str, bytes]:
        """The index as cache sections (JSON values and packed posting lists); the semantic ranker is not packed."""
        lexical_meta, sections = self.lexical.pack()
        meta = {"size": len(self.records), "lexical": lexical_meta, "rules": self.rules.pack(), "group_sizes": self._group_sizes, "semantic_share": self.semantic_share}
        return {"meta": json.dumps(meta, separators=(",", ":")).encode(), **sections}

    @classmethod
    def unpacked(cls, records: Sequence[OpRecord], read: Callable[[str], Any], group_summaries: dict[str, str] | None = None) -> SearchIndex:
        """An index read back from :meth:`pack`'s sections over the same ``records`` (in op order); it ranks exactly as the one packed."""
        meta = json.loads(bytes(read("meta")))
        if int(meta["size"]) != len(records):
            raise ValueError("the packed index is over another number of ops")
        index = cls.__new__(cls)
        index.records = records
        index.lexical = LexicalRanker.unpacked(meta["lexical"], read)
        index.semantic = None
        index.group_summaries = dict(group_summaries or {})
        index._group_sizes = {str(k): int(v) for k, v in meta["group_sizes"].items()}
        index.intents = default_intent_reader()
        index.rules = Rules.unpacked(records, meta["rules"])
        index.calibration = default_calibration()
        index.semantic_share = float(meta["semantic_share"])
        index.prune_from_ops = PRUNE_FROM_OPS
        index.dense_sums = True
        index._remember_readings()
        return index

    def _remember_readings(self) -> None:
        """Bounded memories (least recently used out) of how a request and a facet read; they live and die with this index."""
        self.read_request = lru_cache(maxsize=INTENT_MEMO)(self._read_request)
        self.read_facet = lru_cache(maxsize=INTENT_MEMO)(self._read_facet)

    def _read_request(self, query: str) -> Intent:
        """How a whole request reads, its facets found (see :meth:`IntentReader.read_request`)."""
        return self.intents.read_request(query, self._knows)

    def _read_facet(self, facet: str) -> Intent:
        """How one facet of a request reads: a request of its own, not split again."""
        return self.intents.read_request(facet, split=False)

    def _knows(self, word: str) -> bool:
        """Whether the catalogue's text has ``word``."""
        return word in self.lexical.speller.counts

    def _action_terms(self, action: str) -> set[str]:
        """An action's term and its related terms ("reorganize" -> restructure, rearrange...)."""
        found = set(terms(action))
        for term in list(found):
            found.update(self.lexical.related.of(term))
        return found

    @classmethod
    def build(cls, records: Iterable[OpRecord], *, semantic: bool = False, group_summaries: dict[str, str] | None = None) -> SearchIndex:
        """An index over ``records`` (a :class:`Registry` works: its group summaries are used too).

        ``semantic=True`` needs the ``opgate[semantic]`` extra and raises
        :class:`SemanticUnavailable` without it; see :func:`semantic_available`.
        """
        if group_summaries is None:
            group_summaries = getattr(records, "group_summaries", None)
        listed = sorted(records, key=lambda r: r.op)
        texts = [op_text(r) for r in listed]
        embedder = None
        if semantic:
            from ._semantic import SemanticRanker

            embedder = SemanticRanker.load(listed)
        return cls(listed, LexicalRanker(texts), embedder, group_summaries)

    # -- ranking ---------------------------------------------------------------

    def _scored(self, query: str) -> tuple[dict[int, float], Callable[[int], float]]:
        """Rank scores (0..1) of every op matching ``query``, and a function giving an op's absolute evidence."""
        match = self.lexical.match(query)
        if self.semantic is None:
            return match.fused, match.coverage
        meaning = self.semantic.match(query)
        share = self.semantic_share
        scores = {d: share * s for d, s in meaning.scores.items()}
        for doc_id, score in match.fused.items():
            scores[doc_id] += (1.0 - share) * score
        return scores, lambda doc_id: max(match.coverage(doc_id), meaning.evidence(doc_id))

    def _ranked(self, query: str, keep: Callable[[OpRecord], bool], plausible: float = 0.0, wanted: int | None = None) -> Iterator[Ranked]:
        """Ops that pass ``keep``, best first; a request for several ops gets each op near the top.

        Nothing when the best op's evidence is under ``plausible`` (search
        asks for :data:`PLAUSIBLE`; groups, which only hint, ask for none).
        ``wanted``: how many the caller will likely read (any number may be read).
        """
        if not query or not query.strip():
            return
        intent = self.read_request(query)
        whole = self._ranked_one(query, intent, keep, plausible, wanted)
        if len(intent.facets) < 2:
            yield from whole
            return
        yield from self._facet_covered(intent, whole, keep, plausible)

    def _facet_covered(self, intent: Intent, whole: Iterator[Ranked], keep: Callable[[OpRecord], bool], plausible: float) -> Iterator[Ranked]:
        """A request for several things: the whole request's best op, each facet's best by confidence, then the rest of the whole ranking.

        Each facet is ranked as a request of its own (the rules apply to it:
        its verb, its state change, with their suggested arguments), and its
        best op joins the top when the facet's ranking gives it at least
        ``FACET_FLOOR``. The whole request's best op stays first: it is what
        a single-intent reading gives, and it obeys the safety rule. See
        :func:`._coverage.covered`.
        """
        lead = next(whole, None)
        bests = []
        for facet in intent.facets:
            best = next(self._ranked_one(facet, self.read_facet(facet), keep, plausible, 1), None)
            if best is not None and best.confidence >= FACET_FLOOR:
                bests.append(best)
        # A destructive op may not lead a request that does not ask to remove something (the lead already obeys).
        return covered(lead, bests, whole, may_lead=lambda r: intent.asks_removal or not self.rules.is_barred(r.record))

    def _ranked_one(self, query: str, intent: Intent, keep: Callable[[OpRecord], bool], plausible: float, wanted: int | None = None) -> Iterator[Ranked]:
        """One request's ranking: scored, the rules applied, filtered, with calibrated confidences.

        Relevance is confidence before the rank power, the cap and
        calibration: what :func:`rank_groups` adds up, so that the
        second-best op of a group still counts for that group.

        ``wanted`` says how many ops the caller will likely read: the first
        ones are then found by score bounds (:mod:`._top`), and the full
        ranking is worked out only if the caller reads past them.
        """
        def passes(doc_id: int) -> bool:
            return keep(self.records[doc_id])

        prefix = None
        if wanted is not None and self.semantic is None and not intent.state and len(self.records) >= self.prune_from_ops:
            factors = self.rules.factors(intent, set(self.lexical.query_terms(query)))
            dense = self.dense_sums and numpy_module() is not None
            prefix = best_prefix(self.lexical, query, factors, passes, MIN_EVIDENCE, max(wanted, PLAUSIBLE_WINDOW), dense=dense)
        if prefix is not None:
            order = pruned_then_full(prefix, factors[1], lambda: self._full_order(query, intent, passes))
            suggested: dict[int, dict[str, Any]] = {}
            strongest_near: Callable[[float], float] | None = None
            first = None
        else:
            full = self._full_order(query, intent, passes)
            if full is None:
                return
            order, suggested, first, strongest_near = full
        # Plausibility reads the best PLAUSIBLE_WINDOW ops that have evidence:
        # with embeddings, ops without any are ranked too (by meaning), and a
        # head of only those would make a related request look unrelated.
        head: list[tuple[int, float, float]] = []
        with_evidence = 0
        for item in order:
            head.append(item)
            with_evidence += item[2] >= MIN_EVIDENCE
            if with_evidence == PLAUSIBLE_WINDOW:
                break
        if not head or max(math.sqrt(strength) for _, _, strength in head) < plausible:
            return
        best: float | None = None
        ceiling = 1.0
        for doc_id, score, strength in itertools.chain(head, order):
            record = self.records[doc_id]
            if doc_id == first and strongest_near is not None:
                # Put first by a rule: as sure as the best op the words found.
                strength = max(strength, strongest_near(score * 0.5))
            if best is None:
                best = score or 1.0
            ratio = min(1.0, score / best)
            raw = math.sqrt(strength) * ratio**RANK_SHARPNESS
            confidence = min(ceiling, self.calibration(raw))
            ceiling = confidence
            yield Ranked(record, round(confidence, 3), math.sqrt(strength) * ratio, suggested.get(doc_id))

    def _full_order(self, query: str, intent: Intent, passes: Callable[[int], bool]) -> tuple[Iterator[tuple[int, float, float]], dict[int, dict[str, Any]], int | None, Callable[[float], float]] | None:
        """Every matching op scored: ``(op, score, evidence)`` best first, suggested arguments, the op a rule put first, and the best evidence at or above a score."""
        scores, evidence = self._scored(query)
        if not scores:
            return None
        adjusted = self.rules.apply(intent, set(self.lexical.query_terms(query)), scores, passes)
        scores, suggested, first = adjusted.scores, adjusted.suggested, adjusted.first
        if first is not None and not passes(first):
            first = None
        floor = MIN_EVIDENCE if self.semantic is None else SEMANTIC_MIN_EVIDENCE
        order = lead_first(by_score(scores), keep=lambda d: passes(d) and evidence(d) >= floor, lead=first, barred=adjusted.barred)

        def strongest_near(floor: float) -> float:
            return max((evidence(d) for d in scores if scores[d] >= floor), default=0.0)

        return ((d, scores[d], evidence(d)) for d in order), suggested, first, strongest_near

    # -- the API -------------------------------------------------------------------

    def search(
        self,
        query: str,
        *,
        limit: int = DEFAULT_LIMIT,
        offset: int = 0,
        path: str | None = None,
        kind: str | None = None,
        visible: Visible | None = None,
    ) -> list[SearchHit]:
        """Ops matching ``query``, best first.

        ``path`` keeps ops at or under a dotted prefix (``onto.task``),
        ``kind`` keeps ``read`` or ``write`` ops, ``visible`` keeps the ops the
        caller may see. ``limit`` is clamped to 1..51 (a page of 50 and the
        one hit that says another page follows); ``offset`` pages. Empty or
        unmatched queries give ``[]``.
        """
        limit = max(1, min(MAX_LIMIT + 1, limit))
        offset = max(0, offset)
        prefix = path.strip(".") + "." if path else None

        def keep(record: OpRecord) -> bool:
            if prefix is not None and not (record.op + ".").startswith(prefix):
                return False
            if kind is not None and record.kind != kind:
                return False
            return visible is None or bool(visible(record))

        hits: list[SearchHit] = []
        for item in itertools.islice(self._ranked(query, keep, PLAUSIBLE, offset + limit), offset, offset + limit):
            record = item.record
            hits.append(SearchHit(record.op, record.tool_name, record.summary, item.confidence, item.suggested_args))
        return hits

    def search_nodes(self, query: str, limit: int = DEFAULT_LIMIT, visible: Visible | None = None) -> list[NodeHit]:
        """Groups of the namespace (``onto.document``) whose ops best match ``query``."""
        limit = max(1, min(MAX_LIMIT, limit))
        keep = visible if visible is not None else (lambda record: True)
        matched = [(r.record, r.confidence, r.relevance) for r in itertools.islice(self._ranked(query, keep, wanted=NODE_EVIDENCE_OPS), NODE_EVIDENCE_OPS)]
        if not matched:
            return []
        sizes = self._group_sizes if visible is None else _group_sizes(self.records, visible)
        return rank_groups(matched, sizes, self.group_summaries, limit)


def _group_sizes(records: Sequence[OpRecord], visible: Visible | None) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for record in records:
        if visible is None or visible(record):
            for group in groups_of(record.op):
                sizes[group] = sizes.get(group, 0) + 1
    return sizes

