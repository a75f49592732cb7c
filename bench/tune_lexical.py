"""Tries the default ranker's BM25 settings and long-request term weights, on the tuning sets only.

Run: python bench/tune_lexical.py ['{"k1": 2.0}' ...] [--held]

Each variant is a JSON object of settings, applied to the ranker's module
before any index is built: ``k1``; ``b`` and ``weight`` per field (``{"b":
{"description": 0.6}}``); ``long_query`` (from how many distinct words a
request counts its words by IDF); and for long requests ``power`` (each
word's IDF share raised to it), ``cap`` (only the ``cap`` highest-IDF words
the catalogue has are kept) and ``related`` (the weight of related words;
0 leaves them out). With no variant it runs main's settings. Prints R@1/R@5
per set (see ``_tuning_sets.SHORT_NAMES``); ``--held`` runs the held-back
parts instead, to confirm a choice once. Session 11's second round used it
(docs/search.md).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _tuning_sets import SHORT_NAMES, tuning_sets  # noqa: E402
from bench_search import run  # noqa: E402

from opgate.core.search import _lexical, _related  # noqa: E402
from opgate.core.search._bm25 import Field  # noqa: E402


def apply(variant: dict) -> None:
    """Sets the variant's values on the modules (one variant per process: nothing is undone)."""
    _lexical.K1 = variant.get("k1", _lexical.K1)
    _lexical.LONG_QUERY = variant.get("long_query", _lexical.LONG_QUERY)
    for name, b in variant.get("b", {}).items():
        _lexical.FIELDS[name] = Field(weight=_lexical.FIELDS[name].weight, b=b)
    for name, weight in variant.get("weight", {}).items():
        _lexical.FIELDS[name] = Field(weight=weight, b=_lexical.FIELDS[name].b)
    power, cap = variant.get("power", 1.0), variant.get("cap")
    if power != 1.0 or cap:
        main_terms = _lexical.LexicalRanker._terms_of

        def terms_of(self, query):
            found = main_terms(self, query)
            if len(found) < _lexical.LONG_QUERY:
                return found
            weighted = [(term, weight**power) for term, weight in found]
            if cap:
                known = sorted((pair for pair in weighted if pair[0] in self.words.postings), key=lambda pair: -pair[1])
                dropped = {term for term, _ in known[cap:]}
                weighted = [pair for pair in weighted if pair[0] not in dropped]
            return tuple(weighted)

        _lexical.LexicalRanker._terms_of = terms_of
    if "related" in variant:
        main_expand = _related.RelatedTerms.expand

        def expand(self, query, weight=_related.RELATED_WEIGHT):
            if len(query) < _lexical.LONG_QUERY:
                return main_expand(self, query, weight)
            if variant["related"] == 0:
                return [{term: term_weight} for term, term_weight in query.items()]
            return main_expand(self, query, variant["related"])

        _related.RelatedTerms.expand = expand


def main() -> None:
    held = "--held" in sys.argv
    variants = [a for a in sys.argv[1:] if not a.startswith("--")] or ["{}"]
    if len(variants) > 1:
        sys.exit("one variant per run: each is applied to the modules for good (run the script once per variant)")
    variant = json.loads(variants[0])
    apply(variant)
    cells = []
    for query_set in tuning_sets(held):
        tally, _ = run(query_set, "default")
        r1, r5 = tally.row()[:2]
        cells.append(f"{r1}/{r5}")
    print("variant", " ".join(SHORT_NAMES))
    print(json.dumps(variant), " ".join(cells))


if __name__ == "__main__":
    main()
