"""An exec's call-log row is made without an event when nobody listens: it must be the row the event gives."""

from __future__ import annotations

from opgate.core import Gateway
from opgate.core.telemetry._recorder import event_row

_MOMENT = ("ts", "duration_ms")  # when and how long: the only columns two calls may not share


def _same_call_twice(tmp_path, args):
    gateway = Gateway(db_path=tmp_path / "ws.db")
    gateway.exec("onto.task.list", args)  # without a listener: the row is made directly
    events = []
    gateway.telemetry.add_listener(events.append)
    gateway.exec("onto.task.list", args)  # with one: the event is made too
    direct, via_event = reversed(gateway.recent_calls(2))
    gateway.close()
    return direct, via_event, events


def test_the_direct_row_and_the_event_row_agree_on_every_column(tmp_path):
    args = {"limit": 3, "state_key": "todo"}
    direct, via_event, [event] = _same_call_twice(tmp_path, args)
    assert set(direct) == set(via_event)
    differs = {key for key in direct if direct[key] != via_event[key]}
    assert differs <= {*_MOMENT, "trace_id", "seq"}, differs
    expected = event_row(event)
    for key, value in expected.items():
        if key not in _MOMENT:
            assert via_event[key] == value, key
    assert direct["args"] == args and direct["args_truncated"] is False
    assert direct["kind"] == "exec" and direct["ok"] is True and direct["op"] == "onto.task.list"


def test_arguments_that_are_not_flat_or_plain_take_the_copying_path(tmp_path):
    args = {"limit": 3, "nested": {"a": [1, 2]}, "text": "caf\u00e9 \ud800"}
    direct, via_event, _ = _same_call_twice(tmp_path, args)
    assert direct["args"] == via_event["args"] == {"limit": 3, "nested": {"a": [1, 2]}, "text": "caf\u00e9 \ufffd"}
    assert direct["args_digest"] == via_event["args_digest"] and not direct["ok"]


def test_flat_arguments_give_the_columns_the_general_path_gives():
    from opgate.core.exec._telemetry import CallLog, kept_args

    log = CallLog(None, enabled=False)
    for args in ({"task_id": "t-1", "limit": 5, "ratio": 0.5, "flag": True, "none": None}, {"b": "é", "a": 1}, {}):
        columns = log.args_columns(args)
        kept, digest, truncated = kept_args(args, 4096)
        assert columns == {"args_digest": digest, "args": kept, "args_truncated": truncated}
        assert columns["args"] is not args
    long = {"text": "x" * 5000}
    assert log.args_columns(long)["args_truncated"] is True
