"""An integer too long to write as text (a Python caller's, JSON never holds one) is refused with its path and still logged."""

from __future__ import annotations

import pytest

from opgate.core import Gateway

HUGE = 10**5000  # past Python's 4,300 digits: str() and json.dumps raise ValueError


@pytest.mark.parametrize(
    ("args", "field"),
    [
        ({"title": HUGE}, "args.title"),
        ({"title": "t", "priority": -HUGE}, "args.priority"),
        ({"title": [HUGE]}, "args.title[0]"),
        ({"title": {"deep": HUGE}}, "args.title.deep"),
    ],
)
def test_a_huge_integer_is_a_field_error_and_the_call_is_logged(tmp_path, args, field):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True, approver=lambda request: True)
    try:
        answer = gateway.exec("onto.task.create", args, dry_run=True)
        assert answer["ok"] is False and answer["error"]["code"] == "VALIDATION_ERROR", answer["error"]
        errors = answer["error"]["details"]["field_errors"]
        assert [(e["field"], e["code"]) for e in errors] == [(field, "too_large")]
        logged = gateway._call_log.recent(5)
        assert [(e["op"], e["code"]) for e in logged] == [("onto.task.create", "VALIDATION_ERROR")]
        assert "digits, not kept" in str(logged[0]["args"])
    finally:
        gateway.close()


def test_a_long_but_writable_integer_still_reaches_validation(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db", allow_write=True, approver=lambda request: True)
    try:
        answer = gateway.exec("onto.task.create", {"title": "t", "priority": 10**900}, dry_run=True)
        assert answer["error"]["code"] == "VALIDATION_ERROR"
        assert all(e["code"] != "too_large" for e in answer["error"]["details"]["field_errors"])
    finally:
        gateway.close()
