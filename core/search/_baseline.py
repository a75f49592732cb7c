"""Plain Okapi BM25 over tool name and description: the yardstick the search is measured against.

Standard choices throughout, so that the comparison is fair to BM25: words
are runs of letters and digits, lower-cased, English stopwords dropped,
Porter-stemmed; k1 = 1.2, b = 0.75. No field weights, no argument text, no
related words, no n-grams. On the MetaTool dev split it scores R@5 59.4, in
line with published BM25 figures for that benchmark.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable

from ..registry._record import OpRecord
from ._bm25 import BM25Index, Field
from ._stem import stem
from ._tokens import STOPWORDS

_WORD = re.compile(r"[a-z0-9]+")


def baseline_terms(text: str) -> list[str]:
    return [stem(w) for w in _WORD.findall(text.lower()) if w not in STOPWORDS]


class BM25Baseline:
    """Ranks ops by BM25 of ``tool_name + description``."""

    def __init__(self, records: Iterable[OpRecord]):
        self.records = list(records)
        documents = [{"text": baseline_terms(f"{r.tool_name} {r.description}")} for r in self.records]
        self.index = BM25Index(documents, {"text": Field()})

    def search(self, query: str, limit: int = 10) -> list[OpRecord]:
        scores = self.index.scores({term: count} for term, count in Counter(baseline_terms(query)).items())
        ranked = sorted(scores, key=lambda doc_id: (-scores[doc_id], doc_id))
        return [self.records[doc_id] for doc_id in ranked[:limit]]
