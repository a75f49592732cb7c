"""The call log read back for people: outcomes in words, arguments in one line, and the filter both front ends share."""

from __future__ import annotations

from opgate.core.call_history import HistoryFilter, args_text, outcome_text

ENTRIES = [
    {"op": "onto.task.delete", "ok": False, "code": "CANCELLED", "dry_run": False, "args": {"task_id": "20000000-0000-4000-8000-000000000001"}},
    {"op": "onto.task.create", "ok": False, "code": "VALIDATION_ERROR", "dry_run": True, "args": {"title": 3}},
    {"op": "onto.project.list", "ok": True, "code": None, "dry_run": False, "args": {"limit": 2, "state_key": "active"}},
]


def _ops(text: str) -> list[str]:
    return [e["op"] for e in HistoryFilter.parse(text).apply(ENTRIES)]


def test_outcomes_read_as_words():
    assert [outcome_text(e) for e in ENTRIES] == ["cancelled, nothing written", "VALIDATION_ERROR", "ok"]


def test_arguments_fit_one_line_and_ids_are_shortened():
    assert args_text(ENTRIES[0]["args"]) == "task_id=2000…0001"
    assert args_text({"title": "two words", "note": "a\nb"}) == 'title="two words" note="a\\nb"'
    assert len(args_text({"text": "x" * 500, "more": list(range(100))}, 40)) == 40
    assert args_text(None) == "" and args_text({}) == ""


def test_filters_by_op_outcome_mode_and_text():
    assert _ops("") == [e["op"] for e in ENTRIES]
    assert _ops("op:task") == ["onto.task.delete", "onto.task.create"]
    assert _ops("is:cancelled") == ["onto.task.delete"]
    assert _ops("is:failed") == ["onto.task.create"]  # a cancellation is not a failure
    assert _ops("is:dry-run") == ["onto.task.create"] and _ops("is:run is:ok") == ["onto.project.list"]
    assert _ops("is:VALIDATION_ERROR") == ["onto.task.create"]
    assert _ops("limit=2") == ["onto.project.list"] and _ops("ACTIVE project") == ["onto.project.list"]
    assert _ops("nothing written") == ["onto.task.delete"]
    assert HistoryFilter.parse("is:maybe").problems and not HistoryFilter.parse("is:ok").problems


def test_an_id_with_a_known_name_shows_it_cut_and_the_filter_finds_the_name():
    task = "20000000-0000-4000-8000-000000000001"
    assert args_text({"task_id": task}, names={task: "Ship it"}) == 'task_id="Ship it" 2000…0001'
    long = "A name far longer than a column has room for"
    assert args_text({"task_id": task}, names={task: long}) == 'task_id="A name far longer t…" 2000…0001'
    assert args_text({"task_id": task}, names={}) == "task_id=2000…0001"
    wanted = HistoryFilter.parse("ship")
    assert wanted.apply(ENTRIES) == [] and [e["op"] for e in wanted.apply(ENTRIES, {task: "Ship it"})] == ["onto.task.delete"]
