"""Tries re-orderings of the top five that cover a request's several parts, on the tuning sets only.

Run: python bench/tune_cover.py ['{"mode": "mmr", "lam": 0.3, "threshold": 0.5}' ...] [--held]

Each variant re-orders what ``gw.search(query, limit=10)`` answers before the
first five are scored:

- ``mmr``: maximal marginal relevance. Picked greedily, each op scores its
  confidence minus ``lam`` times its highest similarity to an op already
  picked (IDF-weighted cosine of the name, summary and description words),
  counted only from ``threshold`` on (near duplicates only).
- ``sentences``: the whole request's list and each sentence's list (of
  three words or more, requests of two sentences or more), merged round
  robin.
- ``one``: the whole request's list and one sentence's (``"which": "first"``
  or ``"last"``), merged round robin.
- ``lead``: the whole request's first ``keep`` ops, then each sentence's best
  op whose confidence reaches ``floor`` (by confidence), then the rest.

``"ranker": "semantic"`` runs the semantic ranker instead of the default.
Prints R@1/R@5 per set (see ``_tuning_sets.SHORT_NAMES``); ``--held`` runs
the held-back parts. Session 11's second round used it (docs/search.md).
"""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _tuning_sets import SHORT_NAMES, tuning_sets  # noqa: E402
from bench_search import CUTOFF, Tally  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.search._fields import op_text  # noqa: E402
from opgate.core.search._tokens import terms  # noqa: E402

POOL = 10
SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def op_vectors(gateway: Gateway) -> dict[str, dict[str, float]]:
    """Each op's words weighted by IDF, unit length."""
    index = gateway.search_index
    idf = index.lexical.words.idf
    vectors = {}
    for record in index.records:
        text = op_text(record)
        weights = {w: idf[w] for w in set(terms(text.name) + terms(text.summary) + terms(text.description)) if w in idf}
        norm = math.sqrt(sum(v * v for v in weights.values())) or 1.0
        vectors[record.op] = {w: v / norm for w, v in weights.items()}
    return vectors


def cosine(a: dict[str, float], b: dict[str, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(v * b.get(w, 0.0) for w, v in a.items())


def mmr(hits: list[dict], vectors: dict[str, dict[str, float]], lam: float, threshold: float) -> list[dict]:
    chosen: list[dict] = []
    rest = list(hits)
    while rest and len(chosen) < CUTOFF:
        def value(hit: dict) -> float:
            near = max((cosine(vectors[hit["op"]], vectors[c["op"]]) for c in chosen), default=0.0)
            return hit["confidence"] - lam * (near if near >= threshold else 0.0)

        best = max(rest, key=value)
        rest.remove(best)
        chosen.append(best)
    return chosen + rest


def sentences(text: str) -> list[str]:
    return [s for s in SENTENCE_END.split(text) if len(s.split()) >= 3]


def results(gateway: Gateway, text: str, limit: int) -> list[dict]:
    answer = gateway.search(text, limit=limit)
    return answer.get("results", []) if answer.get("ok") else []


def round_robin(gateway: Gateway, text: str, hits: list[dict], which: str | None = None) -> list[dict]:
    parts = sentences(text)
    if len(parts) < 2:
        return hits
    if which is not None:
        parts = [parts[0] if which == "first" else parts[-1]]
    lists = [hits] + [results(gateway, part, CUTOFF) for part in parts]
    merged, seen = [], set()
    for position in range(POOL):
        for ranked in lists:
            if position < len(ranked) and ranked[position]["op"] not in seen:
                seen.add(ranked[position]["op"])
                merged.append(ranked[position])
    return merged


def lead_then_sentences(gateway: Gateway, text: str, hits: list[dict], keep: int, floor: float) -> list[dict]:
    parts = sentences(text)
    if len(parts) < 2:
        return hits
    head = hits[:keep]
    seen = {h["op"] for h in head}
    extra = []
    for part in parts:
        best = results(gateway, part, 1)
        if best and best[0]["confidence"] >= floor and best[0]["op"] not in seen:
            seen.add(best[0]["op"])
            extra.append(best[0])
    extra.sort(key=lambda h: -h["confidence"])
    return head + extra + [h for h in hits[keep:] if h["op"] not in seen]


def main() -> None:
    held = "--held" in sys.argv
    variant = json.loads(next((a for a in sys.argv[1:] if not a.startswith("--")), "{}"))
    mode = variant.get("mode")
    cells = []
    for query_set in tuning_sets(held):
        gateway = query_set.gateway(search=variant.get("ranker", "default"))
        vectors = op_vectors(gateway) if mode == "mmr" else {}
        tally = Tally()
        for query in query_set.queries:
            hits = results(gateway, query.text, POOL)
            if mode == "mmr":
                hits = mmr(hits, vectors, variant.get("lam", 0.3), variant.get("threshold", 0.0))
            elif mode == "sentences":
                hits = round_robin(gateway, query.text, hits)
            elif mode == "one":
                hits = round_robin(gateway, query.text, hits, variant.get("which", "last"))
            elif mode == "lead":
                hits = lead_then_sentences(gateway, query.text, hits, variant.get("keep", 3), variant.get("floor", 0.5))
            tally.add(query, hits[:CUTOFF])
        gateway.close()
        r1, r5 = tally.row()[:2]
        cells.append(f"{r1}/{r5}")
    print("variant", " ".join(SHORT_NAMES))
    print(json.dumps(variant), " ".join(cells))


if __name__ == "__main__":
    main()
