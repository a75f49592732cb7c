"""Dense sums (core/search/_dense.py) are the very floats the full walk adds up.

The dense path adds every posting of a lane in one ``numpy.bincount`` over
the lists concatenated in summation order. Float addition is not
associative, so this holds only if each op's products are added in list
order starting from 0.0: checked on seeded random lists whose weights span
sixteen orders of magnitude (where another order gives other floats), and on
the real lists of Twilio requests.
"""

from __future__ import annotations

import random
from array import array
from pathlib import Path

import pytest

from opgate.core import build_registry
from opgate.core.catalog import load_catalog
from opgate.core.search import SearchIndex
from opgate.core.search._dense import _sums, numpy_module
from opgate.core.search._sums import weighted_sums

np = numpy_module()  # a dependency: a missing numpy fails these tests, it does not skip them

TWILIO = Path(__file__).resolve().parents[3] / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"
REQUESTS = ["send an sms", "list phone numbers", "buy a phone number", "add a participant to a conversation", "create a messaging service", "recieve faxes", "plorb"]


def _as_dict(sums, held) -> dict[int, float]:
    ids = np.flatnonzero(held).tolist()
    return dict(zip(ids, sums[ids].tolist()))


def _random_lists(rng: random.Random, documents: int, count: int) -> list[tuple[array, array, float]]:
    lists = []
    for _ in range(count):
        ids = array("i", sorted(rng.sample(range(documents), rng.randint(1, documents // 2))))
        weights = array("d", (rng.random() * 10.0 ** rng.randint(-8, 8) for _ in ids))
        lists.append((ids, weights, rng.random() * 10.0 ** rng.randint(-3, 3)))
    return lists


def test_sums_of_random_lists_are_the_walks_floats():
    rng = random.Random(5)
    reordered_differs = 0
    for _ in range(40):
        lists = _random_lists(rng, 300, rng.randint(2, 12))
        walk = weighted_sums(lists)
        assert _as_dict(*_sums(np, lists, 300)) == walk
        # The check can fail: the same lists in another order give other floats for some op.
        reordered_differs += _as_dict(*_sums(np, lists[::-1], 300)) != walk
    assert reordered_differs > 0


def test_sums_of_real_requests_are_the_walks_floats():
    if not TWILIO.exists():
        pytest.fail(f"shared test data is missing: {TWILIO}")
    index = SearchIndex.build(build_registry(load_catalog(TWILIO)))
    size = len(index.records)
    for request in REQUESTS:
        lists = index.lexical.lists(request)
        for lane in (lists.words, lists.grams):
            if lane:
                assert _as_dict(*_sums(np, lane.lists, size)) == weighted_sums(lane.lists), request
