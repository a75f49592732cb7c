"""The depth rule for stored JSON values: checked, cut and parsed without recursion."""

from __future__ import annotations

import json

import pytest

from opgate.core.store import CUT_MARKER, MAX_VALUE_DEPTH, InvalidValue
from opgate.core.store._nesting import cut_deeper_than, dotted, load_bounded, too_deep
from store_testing import P1


def nested(levels: int, leaf: object = None) -> dict:
    value: object = {} if leaf is None else leaf
    for _ in range(levels - (leaf is None)):
        value = {"a": value}
    return value  # type: ignore[return-value]


def test_depth_counts_objects_and_arrays_only():
    assert too_deep(nested(MAX_VALUE_DEPTH)) is None
    assert too_deep(nested(MAX_VALUE_DEPTH + 1)) == ("a",) * MAX_VALUE_DEPTH
    assert too_deep({"list": [[{"x": 1}]]}, 3) == ("list", 0, 0)
    assert too_deep("text") is None


def test_cutting_keeps_order_and_shallow_values():
    value = {"z": 1, "deep": nested(40), "a": [1, 2]}
    cut = cut_deeper_than(value)
    assert list(cut) == ["z", "deep", "a"] and cut["a"] == [1, 2]
    assert too_deep(cut) is None and CUT_MARKER in json.dumps(cut)
    shallow = {"k": 1}
    assert cut_deeper_than(shallow) is shallow


def test_a_value_too_deep_to_parse_becomes_the_marker():
    assert load_bounded("[" * 100_000 + "]" * 100_000) == {"_cut": CUT_MARKER}


def test_long_paths_are_shortened_for_people():
    assert dotted(("props", "a", 0)) == "props.a[0]"
    assert "more levels" in dotted(("a",) * 40, "props")


def test_the_store_refuses_deep_or_cut_values_by_field(store):
    with store.write() as tx:
        tx.insert("project", {"id": P1, "name": "P"})
        with pytest.raises(InvalidValue, match="nests deeper than 32 levels"):
            tx.insert("task", {"project_id": P1, "title": "t", "props": nested(33)})
        with pytest.raises(InvalidValue, match="read back cut"):
            tx.insert("task", {"project_id": P1, "title": "t", "props": {"old": CUT_MARKER}})
        with pytest.raises(InvalidValue, match="nests deeper"):
            tx.add_edge("project", P1, "project", P1, "relates_to", nested(40))


@pytest.mark.parametrize("text", [
    '{"a": 1, "b": [true, null, 1.5]}', '"text"', "3", "-0", "1e400", "NaN", '{"a":1,"a":2}', '{"t": "\\ud800"}',
    ' {"a": 1}', '{"a": 1} ', '{"a": 1}{"b": 2}', '{"a": 1}x', "", "nul", "\ufeff{}", '{"a": ',
])
def test_a_stored_value_is_parsed_exactly_as_json_loads_parses_it(text):
    # The scanner alone reads text that is one value end to end; anything else goes to json.loads, error included.
    try:
        expected, failure = json.loads(text), None
    except ValueError as exc:
        expected, failure = None, (type(exc), str(exc))
    try:
        got, got_failure = load_bounded(text), None
    except ValueError as exc:
        got, got_failure = None, (type(exc), str(exc))
    assert (repr(got), got_failure) == (repr(expected), failure)
