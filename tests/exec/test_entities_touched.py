"""meta.entities: the ids a call touched, as seed 001 §4.3 extracts them.

``id``, fields ending in ``_id`` or ``Id``, and the ``_entities_accessed``
list; any id its API uses (not only UUIDs); and a walk that survives depth.
"""

from __future__ import annotations

from opgate.core.exec import Handler
from opgate.core.exec._entity_ids import MAX_ENTITIES, entities_touched


def test_id_snake_and_camel_fields_and_the_accessed_list():
    result = {
        "issue": {"id": 4211, "repoId": "octo/widgets", "assignee_id": "u-17", "title": "Crash"},
        "_entities_accessed": ["doc-9", {"id": "doc-10"}],
        "flag": True, "hidden": False,
    }
    assert entities_touched(result) == ["4211", "octo/widgets", "u-17", "doc-9", "doc-10"]


def test_what_is_not_an_id_is_left_out():
    result = {"valid": True, "Id": None, "parent_id": None, "count_id": False, "id": "", "name": "x", "position": 3}
    assert entities_touched(result) == []


def test_result_before_diff_and_no_repeats():
    diff = {"created": [{"kind": "task", "id": "t-2"}, {"kind": "task", "id": "t-1"}]}
    assert entities_touched({"task": {"id": "t-1"}}, diff) == ["t-1", "t-2"]


def test_a_deep_result_does_not_exhaust_the_recursion_limit():
    deep: dict = {"id": "bottom"}
    for n in range(5000):
        deep = {"child": deep, "node_id": f"n{n}"} if n % 1000 == 0 else {"child": deep}
    assert entities_touched(deep) == ["bottom", "n0", "n1000", "n2000", "n3000", "n4000"]


def test_at_most_fifty():
    assert len(entities_touched({"items": [{"id": str(n)} for n in range(200)]})) == MAX_ENTITIES


def test_meta_entities_of_a_call_carry_upstream_style_ids(make_gateway):
    handlers = {"onto.goal.get": Handler(lambda ctx, args: {"goal": {"goalId": "G-1"}, "_entities_accessed": ["P-7"]})}
    envelope = make_gateway(handlers=handlers).exec("onto.goal.get", {"goal_id": "30000000-0000-4000-8000-000000000001"})
    assert envelope["meta"]["entities"] == ["G-1", "P-7"]
