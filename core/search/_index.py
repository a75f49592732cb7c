"""SearchIndex: natural-language search over the ops of a registry.

Build once per registry (``SearchIndex.build(registry)``), query many times.
The default ranker is pure Python (:mod:`._lexical`); with the ``semantic``
extra installed, ``semantic=True`` mixes in sentence embeddings
(:mod:`._semantic`).

Confidence, in [0, 1], is computed per hit as::

    confidence = sqrt(evidence) * (score / best_score) ** 4

``evidence`` is absolute: the share of the query the op answers (its BM25F
score over the best score any op could reach for those words; see
``LexicalMatch.coverage``), or the squared trigram cosine, or with
embeddings a rescaled cosine (``_semantic.cosine_evidence``), whichever is
highest. ``score / best_score`` (against the best op that passes the
filters) brings it down the list, and each hit is capped by the one above it,
so confidence never rises down the list.

Both exponents were chosen on the MetaTool dev split by Brier score (the
mean squared gap between confidence and being right): the square root makes a
top hit's confidence track how often it is right, the fourth power makes lower
hits fall off as fast as their chance does (top-five Brier score 0.103 with
the first power, 0.093 the second, 0.087 the fourth and the eighth). There,
top-five hits with confidence 0.2-0.4 were right 24% of the time, 0.4-0.6
54%, 0.6-0.8 71%, 0.8 or more 86% (``bench/bench_search.py`` prints this
table). A clear query ("delete a goal") gets ~1.0 for its top hit; one that
shares a single common word with the catalogue, ~0.2.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING

from ..registry._record import OpRecord
from ._fields import op_text
from ._hits import NodeHit, SearchHit
from ._lexical import LexicalRanker
from ._nodes import groups_of, rank_groups

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
# search_nodes weighs groups by this many best ops: further down, relevance is
# small and computing it for every matching op would cost most of the time.
NODE_EVIDENCE_OPS = 100
# With embeddings, how much the semantic ranker counts against the lexical one.
SEMANTIC_SHARE = 0.7


class SearchIndex:
    """Ranked, filtered, paged search over a fixed list of ops."""

    def __init__(self, records: list[OpRecord], lexical: LexicalRanker, semantic: SemanticRanker | None = None, group_summaries: dict[str, str] | None = None):
        self.records = records
        self.lexical = lexical
        self.semantic = semantic
        self.group_summaries = dict(group_summaries or {})
        self._group_sizes = _group_sizes(records, None)

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
        scores = {d: SEMANTIC_SHARE * s for d, s in meaning.scores.items()}
        for doc_id, score in match.fused.items():
            scores[doc_id] += (1.0 - SEMANTIC_SHARE) * score
        return scores, lambda doc_id: max(match.coverage(doc_id), meaning.evidence(doc_id))

    def _ranked(self, query: str, keep: Callable[[OpRecord], bool]) -> Iterator[tuple[OpRecord, float, float]]:
        """Ops that pass ``keep``, best first, with their confidence and relevance; filtering comes before any cut.

        Relevance is confidence before the fourth power and the cap: what
        :func:`rank_groups` adds up, so that the second-best op of a group
        still counts for that group.
        """
        if not query or not query.strip():
            return
        scores, evidence = self._scored(query)
        if not scores:
            return
        best: float | None = None
        ceiling = 1.0
        # Records are in op order, so ties fall to the op name.
        for _, doc_id in sorted([(-score, doc_id) for doc_id, score in scores.items()]):
            record = self.records[doc_id]
            if not keep(record):
                continue
            strength = evidence(doc_id)
            if strength < MIN_EVIDENCE:
                continue
            if best is None:
                best = scores[doc_id] or 1.0
            ratio = scores[doc_id] / best
            confidence = min(ceiling, math.sqrt(strength) * ratio**RANK_SHARPNESS)
            ceiling = confidence
            yield record, round(confidence, 3), math.sqrt(strength) * ratio

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
        caller may see. ``limit`` is clamped to 1..50; ``offset`` pages.
        Empty or unmatched queries give ``[]``.
        """
        limit = max(1, min(MAX_LIMIT, limit))
        offset = max(0, offset)
        prefix = path.strip(".") + "." if path else None

        def keep(record: OpRecord) -> bool:
            if prefix is not None and not (record.op + ".").startswith(prefix):
                return False
            if kind is not None and record.kind != kind:
                return False
            return visible is None or bool(visible(record))

        hits: list[SearchHit] = []
        for position, (record, confidence, _) in enumerate(self._ranked(query, keep)):
            if position >= offset + limit:
                break
            if position >= offset:
                hits.append(SearchHit(record.op, record.tool_name, record.summary, confidence))
        return hits

    def search_nodes(self, query: str, limit: int = DEFAULT_LIMIT, visible: Visible | None = None) -> list[NodeHit]:
        """Groups of the namespace (``onto.document``) whose ops best match ``query``."""
        limit = max(1, min(MAX_LIMIT, limit))
        keep = visible if visible is not None else (lambda record: True)
        matched = list(itertools.islice(self._ranked(query, keep), NODE_EVIDENCE_OPS))
        if not matched:
            return []
        sizes = self._group_sizes if visible is None else _group_sizes(self.records, visible)
        return rank_groups(matched, sizes, self.group_summaries, limit)


def _group_sizes(records: list[OpRecord], visible: Visible | None) -> dict[str, int]:
    sizes: dict[str, int] = {}
    for record in records:
        if visible is None or visible(record):
            for group in groups_of(record.op):
                sizes[group] = sizes.get(group, 0) + 1
    return sizes

