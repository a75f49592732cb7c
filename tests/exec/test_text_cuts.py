"""A long string in a result is cut once, to about what fits, and listed once in meta.truncated.

The cut used to ignore the marker it appends ("…[truncated: N more
characters]"): a string cut to exactly the limit came out just past it, so
the next round cut the same string by half again and listed it a second
time, counting the first marker among its characters.
"""

from __future__ import annotations

import json

from opgate.core.exec._results import bound_result

LIMIT = 16_000


def _size(value) -> int:
    return len(json.dumps(value, ensure_ascii=False))


def test_a_string_in_an_object_is_cut_once_to_nearly_the_limit():
    bounded, cuts = bound_result({"result": "x" * 1_000_000}, LIMIT)
    assert len(cuts) == 1, cuts
    assert cuts[0]["total_chars"] == 1_000_000 and LIMIT - 200 < cuts[0]["shown_chars"] < LIMIT, cuts
    assert LIMIT - 200 < _size(bounded) <= LIMIT
    assert bounded["result"].endswith(f"[truncated: {1_000_000 - cuts[0]['shown_chars']} more characters]")


def test_a_string_full_of_escapes_is_cut_once_to_nearly_the_limit():
    """Quotes and newlines take two characters of JSON each: a cut counted in characters came out past the limit and the
    string was cut again, listed twice; cut by its JSON length it fits the first time."""
    for text in ('ab"c' * 15_000, "x\n" * 20_000):
        bounded, cuts = bound_result({"k": text}, LIMIT)
        assert len(cuts) == 1, cuts
        assert cuts[0]["total_chars"] == len(text), cuts
        assert LIMIT - 400 < _size(bounded) <= LIMIT
        assert bounded["k"] == text[:cuts[0]["shown_chars"]] + f" …[truncated: {len(text) - cuts[0]['shown_chars']} more characters]"


def test_many_strings_are_each_listed_once_with_their_whole_length():
    answer = {f"k{i}": ('say "hi"\n' if i % 2 else "plain ") * (1_000 * (i + 1)) for i in range(6)}
    bounded, cuts = bound_result(answer, LIMIT)
    paths = [cut["path"] for cut in cuts]
    assert len(paths) == len(set(paths)), cuts
    for cut in cuts:
        key = cut["path"].rsplit(".", 1)[1]
        assert cut["total_chars"] == len(answer[key]), cut
        assert bounded[key] == answer[key][:cut["shown_chars"]] + f" …[truncated: {len(answer[key]) - cut['shown_chars']} more characters]"
    assert _size(bounded) <= LIMIT
