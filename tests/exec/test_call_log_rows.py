"""An exec's call-log row is made without an event when nobody listens: it must be the row the event gives."""

from __future__ import annotations

import json

from opgate.core import Gateway
from opgate.core._json_encoder import JsonText
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
    from opgate.core.exec._call_log_args import kept_args
    from opgate.core.exec._telemetry import CallLog

    log = CallLog(None, enabled=False)
    for args in ({"task_id": "t-1", "limit": 5, "ratio": 0.5, "flag": True, "none": None}, {"b": "é", "a": 1}, {}):
        columns = log.args_columns(args)
        kept, digest, truncated = kept_args(args, 4096)
        assert columns == {"args_digest": digest, "args": kept, "args_truncated": truncated}
        assert columns["args"] is not args
    long = {"text": "x" * 5000}
    assert log.args_columns(long)["args_truncated"] is True


def test_argument_columns_made_when_written_are_those_made_at_call_time():
    from opgate.core._call_log_row import DIGEST_OF_TEXT, args_digest_of
    from opgate.core.exec._telemetry import CallLog

    log = CallLog(None, enabled=False)
    row = {"op": "onto.task.get", "ok": True}
    cases = (
        {"task_id": "t-1", "limit": 5, "ratio": 0.5, "flag": True, "none": None}, {"b": "é", "a": 1}, {},
        {"text": "x" * 5000}, {"a": "y" * 3000, "b": "z" * 3000}, {"n": 10**500},
    )
    for args in cases:
        later = log.with_args(dict(row), args)
        made = later.entry(4096) if not isinstance(later, dict) else later
        if isinstance(made["args"], JsonText):  # the digest's text, stored as it is: the same arguments once read back
            assert made["args"] == json.dumps(args, sort_keys=True), args
            assert made["args_digest"] == DIGEST_OF_TEXT  # worked out from that text when read, the same digest
            made = {**made, "args": json.loads(made["args"]), "args_digest": args_digest_of(made["args"])}
        assert made == {**log.args_columns(args), **row}, args
        assert list(made) == list({**log.args_columns(args), **row}), "the columns keep their order"


def test_what_could_fail_is_not_left_for_later():
    from opgate.core.exec._telemetry import CallLog

    log = CallLog(None, enabled=False)
    for args in ({"n": 10**5000}, {"t": "bad\ud800"}, {"nested": {"a": 1}}):
        try:
            made = log.with_args({"op": "x"}, args)
        except ValueError:
            continue  # an int too long to write raises here, on the call's side, as it did before
        assert isinstance(made, dict), args


def test_the_arguments_are_copied_when_called_and_every_entry_is_written_in_order(tmp_path):
    gateway = Gateway(db_path=tmp_path / "ws.db")
    args = {"limit": 2}
    gateway.exec("onto.task.list", args)
    args["limit"] = 99  # the caller changes its dict before the log is written
    gateway.help("onto")  # an entry of another kind, queued between
    gateway.exec("onto.task.list", {"limit": 4, "state_key": "todo"})
    entries = gateway.telemetry.call_log.since()
    gateway.close()
    execs = [entry for entry in entries if entry["kind"] == "exec"]
    assert [entry["args"] for entry in execs] == [{"limit": 2}, {"limit": 4, "state_key": "todo"}]
    assert [entry["kind"] for entry in entries] == ["exec", "help", "exec"]
    assert all(len(entry["args_digest"]) == 16 for entry in execs)


def test_an_exec_row_made_without_a_dict_is_the_row_the_dict_gives():
    from opgate.core._call_log_row import CALL_ROW_KEYS, CallLogRow
    from opgate.core.exec._call_log_args import ArgsLater, exec_row
    from opgate.core.store._sqlite_bookkeeping import call_log_rows
    from opgate.core.telemetry._recorder import call_row

    def clock():
        return "2026-01-01T00:00:00Z"

    for detail, args in (
        (None, {"task_id": "t-1"}),
        ({}, {"task_id": "t-1", "limit": 5, "ratio": 0.5, "flag": True, "none": None}),
        ({"in_lane": True}, {}),
        ({"in_lane": False}, {"text": "x" * 5000}),  # past the bound: the general path's columns
    ):
        for ok, dry_run in ((True, False), (False, True)):
            values = call_row("tr_1", "onto.task.get", "get_onto_task", 1.25, ok, None if ok else "NOT_FOUND", dry_run, "local",
                              "exec", "se_1", None, "tr_0", "lane", detail, dict(args))
            made = exec_row(values, 4096)  # an exec's queued entry: the values, its arguments last
            as_dict = ArgsLater(dict(zip(CALL_ROW_KEYS, values)), dict(args)).entry(4096)
            assert len(values) == len(CALL_ROW_KEYS) + 1 and values[-1] == args
            assert (type(made) is tuple or type(made) is CallLogRow) == ("text" not in args)  # arguments cut to the bound go the general way
            # A row with nothing left to encode is a plain tuple: apsw copies a subclass's values into a list first.
            assert (type(made) is tuple) == ("text" not in args and not detail)  # call_row keeps no empty detail
            assert call_log_rows([made], clock) == call_log_rows([as_dict], clock), (detail, args, ok)


def test_flat_arguments_are_written_as_the_sorted_encoder_writes_them():
    from opgate.core.exec._call_log_args import sorted_args_text

    every_ascii = [chr(n) for n in range(128)]
    cases = [{"task_id": "5f0c3c1e-8a1b-4c2d-9e3f-123456789abc"}, {}, {"b": 1, "a": "x", "c": -12345678901234567890}]
    cases += [{"name": f"a{c}b"} for c in every_ascii] + [{f"k{c}": "v"} for c in every_ascii] + [{f"k{c}": 3} for c in every_ascii]
    cases += [{"t": True, "n": None, "f": 0.1, "s": "s"}, {"x": "caf\u00e9"}, {"\u00e9": 1}, {"z": "", "": "z"}, {"big": 10**300}]
    for args in cases:
        assert sorted_args_text(args) == json.dumps(args, sort_keys=True), args


def test_the_digest_of_arguments_kept_whole_is_worked_out_when_read(tmp_path, new_workspace):
    import hashlib

    from opgate.core.store import connect_store

    gateway = Gateway(store=connect_store(new_workspace(tmp_path, "ws.db")))
    args = {"limit": 3, "state_key": "todo"}
    gateway.exec("onto.task.list", args)
    gateway.exec("onto.task.list", {"limit": 3, "nested": {"a": 1}})  # refused, and not flat: its digest is stored
    gateway.telemetry.call_log.flush()
    store = gateway.store
    with store.read() as tx:
        stored = [row[0] for row in tx._fetch("SELECT args_digest FROM call_log WHERE kind = 'exec' ORDER BY seq")]
        since = [entry["args_digest"] for entry in tx.calls_since(None) if entry["kind"] == "exec"]
    recent = [entry["args_digest"] for entry in reversed(gateway.recent_calls(2))]
    gateway.close()
    nested = hashlib.sha256(json.dumps({"limit": 3, "nested": {"a": 1}}, sort_keys=True).encode()).hexdigest()[:16]
    assert stored == ["", nested]  # the first row's text is the digest's own: nothing hashed on the call's path
    assert since == recent == [hashlib.sha256(json.dumps(args, sort_keys=True).encode()).hexdigest()[:16], nested]
