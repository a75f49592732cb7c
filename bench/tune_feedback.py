"""Tries pseudo-relevance feedback and length-dependent fusion for the semantic ranker, on the tuning sets only.

Run: python bench/tune_feedback.py ['{"mode": "rocchio", "a": 0.3, "k": 3}' ...] [--held]

Each variant replaces ``SearchIndex._scored`` (how the two lanes' scores
become one) and is measured as R@1 / R@5 through ``gw.search(limit=5)``
with the semantic ranker. One gateway per set serves every variant given;
query embeddings and lexical matches are computed once and reused.

- ``rocchio``: the first pass is main's fused ranking; its best ``k`` ops'
  embeddings, mean ``f``, pull each request row ``q`` (the whole request's
  and each sentence's) to ``q + a f``, normalised, and the semantic lane is
  scored again and fused again. ``"source": "semantic"`` takes the ``k``
  ops from the semantic lane alone (session 9's reading).
- ``rm3``: the lexical lane's query gains the ``m`` terms that weigh most in
  the first pass's best ``k`` ops (each op's term frequencies in its name,
  summary and description, weighted by its fused score, times IDF), each at
  ``beta`` times its weight relative to the heaviest; the lexical lane is
  scored again and fused again.
- ``both``: rocchio and rm3 from the same first pass.
- ``debias``: each request row loses ``beta`` times the mean embedding of
  the MetaTool dev split's queries (what every request shares: a person
  asking for something), normalised again; the semantic lane is scored
  again and fused again.
- ``share``: the semantic share as a function of the request's length:
  ``share`` from ``from`` words on (shorter requests keep main's).

``--parts=lead`` also embeds each op's name and its name with its summary
as parts (main's ``WHOLE_TEXT_SHARE`` mix of whole and best part), for every
variant of the run: the op side read as a short head apart from its long
description, cheaper than main's ``EMBED_PARTS`` (every sentence).

Every feedback variant applies only from ``min_words`` words (0: always).
Evidence (confidence) keeps the first pass's. ``--held`` reads the held-back
parts once, to confirm a choice. Prints one line per variant with R@1/R@5
per set (``_tuning_sets.SHORT_NAMES``). Never reads the MetaTool held-out
split or ToolLens.
"""

from __future__ import annotations

import heapq
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import numpy as np  # noqa: E402
from _tuning_sets import SHORT_NAMES, tuning_sets  # noqa: E402
from bench_search import CUTOFF, Tally  # noqa: E402

from opgate.core.search import _index  # noqa: E402
from opgate.core.search._fields import op_text  # noqa: E402
from opgate.core.search._lexical import NGRAM_SHARE, _mix  # noqa: E402
from opgate.core.search._semantic import CENTRED, WHOLE_REQUEST_SHARE, _inverse_lengths  # noqa: E402
from opgate.core.search._tokens import terms, words  # noqa: E402

MAIN_SCORED = _index.SearchIndex._scored
# The mean embedding of MetaTool dev's queries (``debias``), set by main() when a variant asks for it.
REQUEST_MEAN: list = [None]


def _semantic_scores(ranker, vectors) -> dict[int, float]:
    """The semantic lane's 0..1 scores for request rows ``vectors``, as ``SemanticRanker.match`` makes them."""
    every, every_centred = ranker._cosines(vectors)
    if vectors.ndim == 1:
        ranking = every_centred if CENTRED else every
    else:
        source = every_centred if CENTRED else every
        ranking = WHOLE_REQUEST_SHARE * source[:, 0] + (1.0 - WHOLE_REQUEST_SHARE) * source[:, 1:].max(axis=1)
    low, high = float(ranking.min()), float(ranking.max())
    return dict(enumerate(((ranking.astype("float64") - low) / ((high - low) or 1.0)).tolist()))


def _fuse(share: float, semantic: dict[int, float], lexical: dict[int, float]) -> dict[int, float]:
    scores = {d: share * s for d, s in semantic.items()}
    for d, s in lexical.items():
        scores[d] += (1.0 - share) * s
    return scores


def op_terms(index) -> list[Counter]:
    """Each op's term frequencies (name, summary, description), for rm3."""
    found = []
    for record in index.records:
        text = op_text(record)
        found.append(Counter(terms(text.name) + terms(text.summary) + terms(text.description)))
    return found


def variant_scored(variant: dict):
    mode = variant.get("mode", "main")
    if mode == "main":
        return MAIN_SCORED
    min_words = variant.get("min_words", 0)
    k = variant.get("k", 3)

    def scored(self, query):
        first, evidence = MAIN_SCORED(self, query)
        words = len(query.split())
        if mode == "share":
            if words < variant["from"]:
                return first, evidence
            meaning = self.semantic.match(query)
            return _fuse(variant["share"], meaning.scores, self.lexical.match(query).fused), evidence
        if words < min_words or not first:
            return first, evidence
        ranker = self.semantic
        if mode == "debias":
            moved = ranker._embed(query) - variant.get("beta", 0.5) * REQUEST_MEAN[0]
            moved = moved / np.linalg.norm(moved, axis=-1, keepdims=True)
            return _fuse(self.semantic_share, _semantic_scores(ranker, moved.astype(np.float32)), self.lexical.match(query).fused), evidence
        if variant.get("source") == "semantic":
            pool = ranker.match(query).scores
            top = heapq.nlargest(k, pool, key=pool.get)
        else:
            top = heapq.nlargest(k, first, key=first.get)
        vectors = ranker._embed(query)
        semantic = ranker.match(query).scores
        if mode in ("rocchio", "both"):
            weights = np.array([first[d] for d in top], dtype=np.float32) if variant.get("weighted") else np.ones(len(top), dtype=np.float32)
            feedback = (ranker._embeddings[top] * weights[:, None]).sum(axis=0) / weights.sum()
            moved = vectors + variant.get("a", 0.3) * feedback
            moved = moved / np.linalg.norm(moved, axis=-1, keepdims=True)
            semantic = _semantic_scores(ranker, moved.astype(np.float32))
        lexical = self.lexical.match(query).fused
        if mode in ("rm3", "both"):
            lexical = _rm3(self, query, top, first, variant)
        return _fuse(self.semantic_share, semantic, lexical), evidence

    return scored


def _rm3(index, query: str, top: list[int], first: dict[int, float], variant: dict) -> dict[int, float]:
    lexical = index.lexical
    query_terms = lexical.query_terms(query)
    idf = lexical.words.idf
    weights: Counter = Counter()
    for d in top:
        counts = index._op_terms[d]
        total = sum(counts.values()) or 1
        for term, count in counts.items():
            if term not in query_terms and term in idf:
                weights[term] += first[d] * count / total * idf[term]
    chosen = weights.most_common(variant.get("m", 5))
    if not chosen:
        return lexical.match(query).fused
    heaviest = chosen[0][1]
    beta = variant.get("beta", 0.3)
    base = max(query_terms.values(), default=1.0)
    expanded = lexical.related.expand(query_terms) + [{term: beta * base * weight / heaviest} for term, weight in chosen]
    word_scores = lexical.words.scores(expanded)
    match = lexical.match(query)
    return _mix(word_scores, 1.0 - NGRAM_SHARE, match.gram_scores, NGRAM_SHARE)


def lead_parts(ranker, records) -> None:
    """Gives ``ranker`` two parts per op: its name, and its name with its summary (see ``--parts``)."""
    texts = []
    for record in records:
        name = " ".join(words(record.op.split(".", 1)[-1]))
        texts += [name, f"{name}: {record.summary.strip() or record.description.strip()}"]
    parts = ranker._model.embed(texts).astype(np.float32)
    ranker._parts = parts
    ranker._part_starts = np.arange(0, len(texts), 2)
    ranker._part_scale = _inverse_lengths(parts - ranker._centre)
    ranker._embed.cache_clear()


def main() -> None:
    held = "--held" in sys.argv
    parts = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--parts=")), None)
    variants = [json.loads(a) for a in sys.argv[1:] if not a.startswith("--")] or [{}]
    results: list[list[str]] = [[] for _ in variants]
    if any(v.get("mode") == "debias" for v in variants):
        from _search_data import metatool_dev

        from opgate.core.search._semantic import load_model

        model, _ = load_model()
        REQUEST_MEAN[0] = model.embed([q.text for q in metatool_dev().queries]).mean(axis=0).astype(np.float32)
    for query_set in tuning_sets(held):
        gateway = query_set.gateway(search="semantic")
        index = gateway.search_index
        index._op_terms = op_terms(index)
        if parts == "lead":
            lead_parts(index.semantic, index.records)
        lexical = index.lexical
        plain_match = type(lexical).match
        matches: dict[str, object] = {}

        def match(query, _l=lexical, _m=matches):
            if query not in _m:
                _m[query] = plain_match(_l, query)
            return _m[query]

        lexical.match = match
        for position, variant in enumerate(variants):
            _index.SearchIndex._scored = variant_scored(variant)
            tally = Tally()
            for query in query_set.queries:
                answer = gateway.search(query.text, limit=CUTOFF)
                tally.add(query, answer.get("results", []) if answer.get("ok") else [])
            r1, r5 = tally.row()[:2]
            results[position].append(f"{r1}/{r5}")
        _index.SearchIndex._scored = MAIN_SCORED
        gateway.close()
        print(f"# {query_set.name} done", file=sys.stderr, flush=True)
    print("variant |", " | ".join(SHORT_NAMES))
    for variant, cells in zip(variants, results):
        print(json.dumps(variant), "|", " | ".join(cells), flush=True)


if __name__ == "__main__":
    main()
