"""A new row's defaults: valid for their fields, and never shared between rows.

``new_row`` no longer checks a default on every insert (they are the kinds'
own data), so this checks each one once, here.
"""

from __future__ import annotations

import pytest

from opgate.core.store import InvalidValue
from opgate.core.store._kinds import KINDS
from opgate.core.store._rows import check_value, new_row

NOW = "2026-11-26T00:00:00Z"


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_every_default_suits_its_field(kind):
    spec = KINDS[kind]
    for field in spec.fields:
        if field.default is not None:
            check_value(spec, field, field.default)  # raises InvalidValue for a default its own field refuses


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_a_new_row_fills_every_default_and_shares_no_mutable_one(kind):
    spec = KINDS[kind]
    given = {field.name: field.enum[0] if field.enum else "x" for field in spec.fields if field.required}
    first, second = new_row(spec, given, NOW), new_row(spec, given, NOW)
    for field in spec.fields:
        if field.default is not None:
            assert first[field.name] == field.default
            if isinstance(field.default, (dict, list)):
                assert first[field.name] is not field.default and first[field.name] is not second[field.name]


def test_a_missing_required_field_and_a_bad_given_value_are_still_refused():
    spec = KINDS["task"]
    with pytest.raises(InvalidValue, match="title"):
        new_row(spec, {"project_id": "p"}, NOW)
    with pytest.raises(InvalidValue, match="priority"):
        new_row(spec, {"project_id": "p", "title": "t", "priority": 9}, NOW)
    with pytest.raises(InvalidValue, match="state_key"):
        new_row(spec, {"project_id": "p", "title": "t", "state_key": "nope"}, NOW)



def test_the_clock_moves_on_with_the_second():
    # utc_now keeps its text for the second it was made in; a later second must give a later text.
    import time
    from datetime import datetime, timezone

    from opgate.core.store._rows import utc_now

    first = utc_now()
    second = int(time.time())
    while int(time.time()) == second:
        time.sleep(0.01)
    before = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    later = utc_now()
    after = datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    assert first < later and before <= later <= after
