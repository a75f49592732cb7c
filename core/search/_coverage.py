"""Putting each facet's best op in the top of a ranking (see :mod:`._facets`)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from .._record import replace


def covered(lead: Any | None, bests: Iterable[Any], rest: Iterator[Any], may_lead: Callable[[Any], bool]) -> Iterator[Any]:
    """Pointers (``_index.Ranked``: ``record``, ``confidence``, ``suggested_args``): ``lead`` (the whole request's best), then each facet's best op by confidence, then ``rest``; each op once.

    An op that is both the lead and a facet's best keeps the higher
    confidence (and the suggested arguments either gives). Without a lead,
    an op that ``may_lead`` refuses does not come first. Confidence never
    rises down the list: each op shows at most the confidence of the one
    above it.
    """
    by_op: dict[str, Any] = {}
    for best in bests:
        known = by_op.get(best.record.op)
        if known is None or best.confidence > known.confidence:
            by_op[best.record.op] = best
    top: list[Any] = []
    if lead is not None:
        also = by_op.pop(lead.record.op, None)
        if also is not None and also.confidence > lead.confidence:
            lead = replace(lead, confidence=also.confidence, suggested_args=lead.suggested_args or also.suggested_args)
        top.append(lead)
    top.extend(sorted(by_op.values(), key=lambda r: (lead is None and not may_lead(r), -r.confidence)))
    seen: set[str] = set()
    ceiling = 1.0
    for item in itertools.chain(top, rest):
        if item.record.op in seen:
            continue
        seen.add(item.record.op)
        ceiling = min(ceiling, item.confidence)
        yield item if item.confidence == ceiling else replace(item, confidence=ceiling)
