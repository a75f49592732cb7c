"""The order a ranking gives its ops in: best score first, a rule's lead first, a barred op never first.

Split from :mod:`._index`, which scores; these only order what was scored.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Callable, Iterable, Iterator
from itertools import compress
from typing import Any

from ._prefix import Prefix


def by_score(scores: dict[int, float], head: int = 32) -> Iterator[int]:
    """Every scored op, best score first (ties by op name).

    Most searches read a page of ten: the best ``head`` are picked without
    sorting every matching op, and the rest are sorted only if read.
    """
    top = _top(scores, head)
    return itertools.chain(top, _sorted_later(scores, top) if len(top) < len(scores) else ())


def lead_first(ordered: Iterable[int], *, keep: Callable[[int], bool], lead: int | None, barred: frozenset[int], complete: bool = True) -> Iterator[int]:
    """Ops that pass ``keep`` in the given order, ``lead`` (already checked) first, a ``barred`` op never first.

    With ``complete=False`` the order is only the start of a ranking: barred
    ops still held back when it ends are left for the rest of the ranking.
    """
    if lead is not None:
        yield lead
    held: list[int] = []
    led = lead is not None
    for doc_id in ordered:
        if doc_id == lead or not keep(doc_id):
            continue
        if not led and doc_id in barred:
            held.append(doc_id)
            continue
        led = True
        yield doc_id
        if held:
            yield from held
            held = []
    if complete:
        yield from held


def pruned_then_full(prefix: Prefix, barred: frozenset[int], full: Callable[[], Any]) -> Iterator[tuple[int, float, float]]:
    """The ops of ``prefix`` as the full ranking gives them; past them, the full ranking (worked out then), from where the prefix stopped."""
    given = 0
    for doc_id in lead_first(prefix.order, keep=lambda d: True, lead=None, barred=barred, complete=False):
        given += 1
        yield doc_id, prefix.scores[doc_id], prefix.evidence[doc_id]
    rest = full()
    if rest is not None:
        yield from itertools.islice(rest[0], given, None)


def _top(scores: dict[int, float], head: int) -> list[int]:
    """The ``head`` best documents, by score then id: what ``heapq.nsmallest`` with that key gives.

    The threshold comes from the scores alone (compared in C), so only the
    few documents at or above it are sorted with a Python key.
    """
    if len(scores) <= head:
        return sorted(scores, key=lambda d: (-scores[d], d))
    threshold = heapq.nlargest(head, scores.values())[-1]
    candidates = compress(scores, map(threshold.__le__, scores.values()))
    return sorted(candidates, key=lambda d: (-scores[d], d))[:head]


def _sorted_later(scores: dict[int, float], top: list[int]) -> Iterator[int]:
    """The documents after ``top``, sorted only if a caller reads that far."""
    chosen = set(top)
    yield from sorted((d for d in scores if d not in chosen), key=lambda d: (-scores[d], d))
