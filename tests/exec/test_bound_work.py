"""Cutting a big answer down reads it a bounded number of times, not once per list it holds.

An error envelope for a call with thousands of unknown arguments holds one
field error per argument, each with its own list of allowed names. Finding
the longest list used to encode the whole outer list again for every inner
list compared with it: 800 such arguments took 7 s, 6,000 took minutes.
"""

from __future__ import annotations

import json

from opgate.core.exec import _results


def test_finding_the_longest_list_encodes_the_answer_a_bounded_number_of_times(monkeypatch):
    answer = {"error": {"field_errors": [{"field": f"args.k{i}", "message": "unknown argument", "allowed": ["title", "state"]} for i in range(1000)]}}
    whole = len(json.dumps(answer))
    encoded = []
    real = _results._size
    monkeypatch.setattr(_results, "_size", lambda value: encoded.append(real(value)) or encoded[-1])
    bounded, cuts = _results.bound_result(answer, 2000)
    assert len(json.dumps(bounded)) < 4000 and cuts
    # Each of the at most 64 cutting rounds may encode the answer and each list in it: a few times its size.
    assert sum(encoded) < 64 * 3 * whole
