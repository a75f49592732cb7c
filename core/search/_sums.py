"""Per-document sums of weighted posting lists: the one loop every ranker's scores come from."""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def weighted_sums(lists: Iterable[tuple[Sequence[int], Iterable[float], float]]) -> dict[int, float]:
    """For each document, the sum over ``(ids, weights, factor)`` lists of ``factor * weight``, added in list order.

    The products are taken in C (``map``); the additions are those of a plain
    loop in the same order (the first list's products are stored as they are,
    since 0.0 + x is x), so every sum is bit-identical to the plain walk the
    exactness tests compare against.
    """
    sums: dict[int, float] = {}
    get = sums.get
    for ids, weights, factor in lists:
        products = map(factor.__mul__, weights)
        if not sums:
            sums.update(zip(ids, products))
            continue
        for doc_id, product in zip(ids, products):
            sums[doc_id] = get(doc_id, 0.0) + product
    return sums
