"""Shaping results: the ids a result touched."""

from __future__ import annotations

import uuid

from opgate.core.exec._entity_ids import MAX_ENTITIES, entities_touched

IDS = [str(uuid.UUID(int=n, version=4)) for n in range(1, 80)]


def test_ids_come_in_first_seen_order_result_before_diff():
    result = {"task": {"id": IDS[0], "project_id": IDS[1], "title": IDS[9]}, "links": [{"document_id": IDS[2]}, {"document_id": IDS[0]}]}
    diff = {"created": [{"kind": "task", "id": IDS[3], "row": {"id": IDS[3], "plan_id": None}}]}
    assert entities_touched(result, diff) == IDS[:4]  # "title" is not an id field; repeats count once


def test_ids_in_a_list_keep_the_list_key_and_stop_at_the_maximum():
    result = {"tasks": [{"id": id, "project_id": IDS[0]} for id in IDS[1:]], "task_id": ["not", "ids"]}
    touched = entities_touched(result, {"created": [{"id": IDS[0]}]})
    assert touched == [IDS[1], IDS[0], *IDS[2:MAX_ENTITIES]] and len(touched) == MAX_ENTITIES
    # Any string or integer under an id key is an id (seed 001), not only UUIDs.
    assert entities_touched({"owner_id": [IDS[5], "x"]}) == [IDS[5], "x"]
