"""prepare_call's quick path for flat ASCII arguments must take exactly what the full checks take, and copy it the same way."""

from __future__ import annotations

from opgate.core.exec._errors import InvalidArguments
from opgate.core.exec._prepare import _check_input, _normalise_args, _plain_args

CASES = [
    {}, {"task_id": "0b7c6c9e-7a52-4a51-9a7e-3d3a1c9f6b11"}, {"limit": 5, "offset": 0, "done": True, "x": None, "f": 1.5},
    {"title": "café"}, {"title": "bad\ud800"}, {"caf\u00e9": 1}, {"\udc80": 1}, {1: "a"}, {"nested": {"a": 1}}, {"items": [1, 2]},
    {"big": 10**30}, {"ctrl": "\x00\x1f"}, "{}", None, [], 3,
]


def _full(args):
    try:
        normalised = _normalise_args(args, [])
        _check_input(normalised)
    except InvalidArguments as exc:  # refused: the quick path must refuse too
        return type(exc).__name__
    return normalised


def test_the_quick_path_accepts_only_what_the_full_checks_accept_and_copies_it():
    taken = 0
    for args in CASES:
        quick = _plain_args(args)
        if quick is None:
            continue
        taken += 1
        assert quick == _full(args), args
        assert quick is not args  # the caller's dict is never the call's
    assert taken >= 4  # the usual calls do take it


def test_what_it_turns_down_is_left_to_the_full_checks():
    for args in ({"title": "bad\ud800"}, {"nested": {"a": 1}}, {1: "a"}, "{}", None):
        assert _plain_args(args) is None
