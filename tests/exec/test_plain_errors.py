"""Validation messages say in plain words what is wrong and what is expected, never jsonschema's wording."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.core import Gateway

PROJECT = "10000000-0000-4000-8000-000000000001"
TASK = "20000000-0000-4000-8000-000000000001"


@pytest.fixture
def gw(tmp_path: Path):
    gateway = Gateway(db_path=tmp_path / "w.db")
    yield gateway
    gateway.close()


def _messages(envelope: dict) -> list[str]:
    return [row["message"] for row in envelope["error"]["details"]["field_errors"]]


def test_an_update_with_nothing_to_change_says_so(gw: Gateway) -> None:
    envelope = gw.exec("onto.task.update", {"task_id": TASK})
    (message,) = _messages(envelope)
    assert "does not have enough properties" not in message and "only task_id was given" in message
    assert "does not have enough properties" not in envelope["error"]["message"]


def test_dates_and_ids_say_what_they_should_look_like(gw: Gateway) -> None:
    envelope = gw.exec("onto.task.create", {"project_id": "nope", "title": "x", "due_at": "tomorrow"}, dry_run=True)
    messages = " | ".join(_messages(envelope))
    assert '"tomorrow" is not a valid date-time; expected a date and time such as 2026-03-01T09:00:00Z' in messages
    assert '"nope" is not a valid uuid; expected an id such as' in messages


def test_types_and_ranges_read_as_words(gw: Gateway) -> None:
    messages = " | ".join(_messages(gw.exec("onto.task.create", {"project_id": PROJECT, "title": "x", "priority": 9}, dry_run=True)))
    assert "9 is too large; expected at most 5" in messages
    messages = " | ".join(_messages(gw.exec("onto.task.list", {"limit": "ten"})))
    assert '"ten" is text; expected a whole number' in messages
