"""Tries ways of fusing the semantic lane with the lexical one, on the tuning sets only.

Run: python bench/tune_fusion.py [variant ...]

Sets: the built-in requests' tuning part, the MetaTool dev split and its
long requests (never the held-back part, the held-out split or ToolLens).
Each variant replaces ``SearchIndex._scored`` (how the two lanes' scores
become one) and is measured as R@5 through ``gw.search(limit=5)``. Query
embeddings are computed once per set and reused by every variant.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np  # noqa: E402
from _search_data import metatool_dev, metatool_dev_long, own_sets  # noqa: E402
from bench_search import Tally  # noqa: E402

from opgate.core.search import _index  # noqa: E402
from opgate.core.search._semantic import cosine_evidence  # noqa: E402


def _ranks(values: dict[int, float]) -> dict[int, int]:
    return {d: r for r, d in enumerate(sorted(values, key=lambda d: -values[d]))}


def score_fusion(share: float, *, scale: str = "minmax", floor: float = 0.0, power: float = 1.0) -> Callable:
    def scored(self, query):
        match = self.lexical.match(query)
        cos = self.semantic.match(query).cosines  # whole text and best part, as the ranker mixes them
        high = float(cos.max())
        low = float(cos.min()) if scale == "minmax" else floor
        sem = np.clip((cos - low) / max(1e-9, high - low), 0, 1) ** power
        lex_share = 1.0 - share
        scores = {d: share * float(s) for d, s in enumerate(sem.tolist())}
        for d, s in match.fused.items():
            scores[d] += lex_share * s
        return scores, lambda d: max(match.coverage(d), cosine_evidence(float(cos[d])))

    return scored


def sentence_fusion(share: float | None, whole: float, min_words: int = 0) -> Callable:
    """Score fusion over a cosine mixing the whole request's and its best sentence's."""

    def scored(self, query):
        match = self.lexical.match(query)
        cos = self.semantic._embeddings @ self.semantic._embed(query)
        parts = self.semantic.pieces(query) if len(query.split()) >= min_words else None
        if parts is not None:
            cos = whole * cos + (1 - whole) * (self.semantic._embeddings @ parts.T).max(axis=1)
        low, high = float(cos.min()), float(cos.max())
        sem = (cos - low) / max(1e-9, high - low)
        mix = self.semantic_share if share is None else share
        scores = {d: mix * float(s) for d, s in enumerate(sem.tolist())}
        for d, s in match.fused.items():
            scores[d] += (1 - mix) * s
        return scores, lambda d: max(match.coverage(d), cosine_evidence(float(cos[d])))

    return scored


def rank_fusion(k: float, sem_weight: float = 1.0, depth: int = 100) -> Callable:
    def scored(self, query):
        match = self.lexical.match(query)
        cos = self.semantic.match(query).cosines
        sem_rank = np.argsort(-cos)[:depth]
        lex_rank = _ranks(match.fused)
        scores: dict[int, float] = {}
        for r, d in enumerate(sem_rank.tolist()):
            scores[d] = sem_weight / (k + r)
        for d, r in lex_rank.items():
            if r < depth:
                scores[d] = scores.get(d, 0.0) + 1.0 / (k + r)
        top = max(scores.values())
        scores = {d: s / top for d, s in scores.items()}
        return scores, lambda d: max(match.coverage(d), cosine_evidence(float(cos[d])))

    return scored


VARIANTS: dict[str, Callable | None] = {
    "current": None,
    "minmax .6": score_fusion(0.6),
    "minmax .8": score_fusion(0.8),
    "floor .2 .7": score_fusion(0.7, scale="floor", floor=0.2),
    "floor .2 .7 p2": score_fusion(0.7, scale="floor", floor=0.2, power=2.0),
    "floor .0 .7 p2": score_fusion(0.7, scale="floor", floor=0.0, power=2.0),
    "minmax .7 p2": score_fusion(0.7, power=2.0),
    "rrf 60": rank_fusion(60),
    "rrf 10": rank_fusion(10),
    "rrf 10 sem1.5": rank_fusion(10, 1.5),
    "sent .7 w.5": sentence_fusion(0.7, 0.5),
    "sent .7 w.3": sentence_fusion(0.7, 0.3),
    "sent .7 w0": sentence_fusion(0.7, 0.0),
    "sent .7 w.5 20w": sentence_fusion(0.7, 0.5, 20),
    "sent .7 w.5 30w": sentence_fusion(0.7, 0.5, 30),
    "sent w.5": sentence_fusion(None, 0.5),
    "sent w.5 20w": sentence_fusion(None, 0.5, 20),
}


def main() -> None:
    chosen = [a for a in sys.argv[1:] if not a.startswith("--")] or list(VARIANTS)
    every = {"own": lambda: own_sets()[0], "dev": metatool_dev, "long": lambda: metatool_dev_long(300)}
    picked = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--sets=")), "own,dev,long").split(",")
    sets = [every[k]() for k in picked]
    original = _index.SearchIndex._scored
    rows = []
    for query_set in sets:
        gateway = query_set.gateway(search="semantic")
        ranker = gateway.search_index.semantic
        memo: dict[str, object] = {}

        def embed(query, _r=ranker, _m=memo):
            if query not in _m:
                _m[query] = _r._embed_query(query)
            return _m[query]

        ranker._embed = embed
        lexical = gateway.search_index.lexical
        matches: dict[str, object] = {}
        plain_match = type(lexical).match

        def match(query, _l=lexical, _m=matches):
            if query not in _m:
                _m[query] = plain_match(_l, query)
            return _m[query]

        lexical.match = match
        pieces_memo: dict[str, object] = {}

        def pieces(query, _r=ranker, _m=pieces_memo):
            if query not in _m:
                parts = [p.strip() for p in re.split(r"[.!?;]+", query) if len(p.split()) >= 3]
                _m[query] = _r._model.embed(parts) if len(parts) > 1 else None
            return _m[query]

        ranker.pieces = pieces
        for name in chosen:
            variant = VARIANTS[name]
            _index.SearchIndex._scored = original if variant is None else variant
            tally = Tally()
            for query in query_set.queries:
                answer = gateway.search(query.text, limit=5)
                tally.add(query, answer.get("results", []) if answer.get("ok") else [])
            rows.append((query_set.name, name, tally.row()))
            print(f"{query_set.name:32} {name:18} R@1 {tally.row()[0]:>5} R@5 {tally.row()[1]:>5}", flush=True)
        _index.SearchIndex._scored = original
        gateway.close()


if __name__ == "__main__":
    main()
