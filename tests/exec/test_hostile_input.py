"""Hostile input through Gateway.exec: deep nesting, text that is not Unicode, and answers that would be megabytes.

Each case is a repro from issue 15 run on the real built-in handlers and a
real SQLite workspace. Bad input gets a VALIDATION_ERROR naming the field,
writes nothing, and is still in the call log; no answer grows with its input.
"""

from __future__ import annotations

import json

import pytest

from opgate.core import Gateway
from opgate.core.safe_json import MAX_DEPTH
from opgate.core.store._nesting import MAX_VALUE_DEPTH

PROJECT = "10000000-0000-4000-8000-000000000001"
LIMIT = 16_000  # GatewaySettings.result_char_limit


@pytest.fixture
def gateway(tmp_path):
    gateway = Gateway(db_path=tmp_path / "workspace.db", allow_write=True)
    yield gateway
    gateway.close()


def _nested(levels: int) -> object:
    value: object = "bottom"
    for _ in range(levels):
        value = {"deeper": value}
    return value


def _task_count(gateway: Gateway) -> int:
    return gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"]


def _logged(gateway: Gateway, trace_id: str) -> dict:
    entries = [e for e in gateway.recent_calls(20) if e["trace_id"] == trace_id]
    assert entries, "the refused call is in the call log"
    return entries[0]


@pytest.mark.parametrize("title", ["half a pair \ud800 here", "bytes that were not UTF-8: \udcff\udcfe"])
def test_a_lone_surrogate_is_a_validation_error_naming_the_field_and_is_logged(gateway, title):
    before = _task_count(gateway)
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": title})
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["path"], field_error["code"]) == ("args.title", "/title", "invalid_text")
    assert _task_count(gateway) == before, "nothing was written"
    entry = _logged(gateway, envelope["meta"]["trace_id"])
    assert entry["code"] == "VALIDATION_ERROR" and entry["op"] == "onto.task.create"
    assert "\ufffd" in entry["args"]["title"], "the log keeps the call, with the bad text replaced"
    json.dumps(envelope, ensure_ascii=False).encode("utf-8")  # the answer itself is writable anywhere


def test_a_lone_surrogate_in_an_argument_name_or_the_op_is_refused_too(gateway):
    named = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "ok", "x\udcff": 1})
    assert named["error"]["code"] == "VALIDATION_ERROR"
    assert named["error"]["details"]["field_errors"][0]["code"] == "invalid_text"
    unknown_op = gateway.exec("onto.task.\udcff", {})
    assert unknown_op["error"]["code"] == "NOT_FOUND"
    json.dumps(unknown_op, ensure_ascii=False).encode("utf-8")
    _logged(gateway, unknown_op["meta"]["trace_id"])


def test_values_nested_too_deeply_are_refused_with_their_path_and_nothing_is_stored(gateway):
    before = _task_count(gateway)
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "deep props", "props": _nested(MAX_DEPTH + 5)})
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert field_error["code"] == "too_deep" and field_error["field"].startswith("args.props.deeper.deeper")
    assert _task_count(gateway) == before
    _logged(gateway, envelope["meta"]["trace_id"])
    # Within the store's limit for a stored value, it is stored and read back whole.
    fits = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "nested props", "props": _nested(MAX_VALUE_DEPTH - 2)})
    assert fits["ok"], fits
    task = gateway.exec("onto.task.get", {"task_id": fits["result"]["task"]["id"]})
    assert task["result"]["task"]["props"] == _nested(MAX_VALUE_DEPTH - 2)


def test_arguments_sent_as_a_deeply_nested_json_string_are_a_validation_error(gateway):
    envelope = gateway.exec("onto.task.list", "[" * 100_000 + "]" * 100_000)
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert "nested more than" in envelope["error"]["message"]
    _logged(gateway, envelope["meta"]["trace_id"])


def test_a_megabyte_title_gives_a_small_error_envelope(gateway):
    envelope = gateway.exec("onto.task.create", {"project_id": "nope", "title": "x" * 1_000_000})
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert len(json.dumps(envelope)) < LIMIT, "it was about 2 MB: the title was echoed twice"
    errors = {e["field"]: e["message"] for e in envelope["error"]["details"]["field_errors"]}
    assert set(errors) == {"args.project_id", "args.title"}
    # The message says how long it is instead of quoting it (echoed text is cut elsewhere: see the next test).
    assert errors["args.title"].startswith("is too long (1000000 characters); expected at most")


def test_an_unknown_op_of_a_megabyte_is_not_echoed_whole(gateway):
    envelope = gateway.exec("x" * 1_000_000, {})
    assert envelope["error"]["code"] == "NOT_FOUND"
    assert len(json.dumps(envelope)) < LIMIT
    # The message quotes the op cut short where it is made (core/echo_text.py); the op itself is cut by the envelope's bound.
    assert {cut["path"] for cut in envelope["meta"]["truncated"]} >= {"op"}
    assert len(envelope["error"]["message"]) < 400 and "(1,000,000 characters)" in envelope["error"]["message"]


def test_a_thousand_unknown_arguments_give_a_bounded_list_of_field_errors(gateway):
    args = {f"unknown_{n}": "v" * 300 for n in range(1000)}
    envelope = gateway.exec("onto.task.list", args)
    assert envelope["error"]["code"] == "VALIDATION_ERROR"
    assert len(json.dumps(envelope)) < 2 * LIMIT
    # 49 names are listed, and a last row counts the rest; the envelope's bound may cut the rows further.
    rows = envelope["error"]["details"]["field_errors"]
    assert len(rows) <= 50 and envelope["error"]["message"].startswith("1,000 problems")
    cut = [c for c in envelope.get("meta", {}).get("truncated", []) if c["path"] == "error.details.field_errors"]
    assert rows[-1]["more"] == 951 if not cut else cut[0]["total"] == 50


def test_a_cascade_delete_keeps_its_diff_bounded(gateway):
    folder = gateway.exec("onto.document.create", {"project_id": PROJECT, "title": "Archive", "type_key": "document.folder"})["result"]["document"]
    for n in range(60):
        made = gateway.exec("onto.document.create", {"project_id": PROJECT, "title": f"Page {n}", "parent_id": folder["id"], "content": f"page {n} " * 2500})
        assert made["ok"], made
    envelope = gateway.exec("onto.document.delete", {"document_id": folder["id"], "cascade": True}, dry_run=True)
    assert envelope["ok"], envelope
    assert len(json.dumps(envelope)) < 3 * LIMIT, "a cascade delete's diff was over a megabyte"
    paths = {cut["path"] for cut in envelope["meta"]["truncated"]}
    assert any(path.startswith("meta.diff") for path in paths), paths
    assert envelope["meta"]["state_digest"] and envelope["meta"]["trace_id"], "the parts a caller needs are never cut"


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
@pytest.mark.parametrize("where", ["props", "top", "json text"])
def test_a_number_json_cannot_carry_is_a_validation_error_naming_the_field(gateway, number, where):
    """NaN and the infinities are no JSON numbers: inside props one reached the store's JSON check and came back as CONFLICT."""
    before = _task_count(gateway)
    args: object = {"project_id": PROJECT, "title": "odd number", "props": {"x": number}}
    field = "args.props.x"
    if where == "top":
        args, field = {"project_id": PROJECT, "title": "odd number", "priority": number}, "args.priority"
    elif where == "json text":  # the CLI's and the MCP transports' parser reads NaN and Infinity literals
        args = json.dumps(args)
    envelope = gateway.exec("onto.task.create", args)
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["code"]) == (field, "invalid_number"), field_error
    assert _task_count(gateway) == before, "nothing was written"
    entry = _logged(gateway, envelope["meta"]["trace_id"])
    json.loads(json.dumps(entry), parse_constant=lambda name: pytest.fail(f"the call log kept {name}, which is no JSON"))


@pytest.mark.parametrize("value", [{1, 2}, frozenset({"a"}), b"bytes", bytearray(b"b"), object(), 1j], ids=lambda v: type(v).__name__)
def test_a_python_value_json_cannot_hold_is_a_validation_error_not_internal(gateway, value):
    """Gateway.exec takes Python values: one that is no JSON value (a set, bytes) ended as INTERNAL with a traceback in the log."""
    before = _task_count(gateway)
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "odd value", "props": {"notes": [1, value]}})
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["code"]) == ("args.props.notes[1]", "invalid_type"), field_error
    assert type(value).__name__ in field_error["message"]
    assert _task_count(gateway) == before
    _logged(gateway, envelope["meta"]["trace_id"])


def test_text_inside_a_tuple_is_checked_like_text_inside_a_list(gateway):
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "tuple", "props": {"notes": ("fine", "half \ud800")}})
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["code"]) == ("args.props.notes[1]", "invalid_text"), field_error


@pytest.mark.parametrize("facets", [{(1, 2): "x"}, {1: "a", "b": 2}, {None: 1, "a": 2}], ids=["tuple", "int and text", "None and text"])
def test_a_name_that_is_not_text_inside_a_value_is_refused_and_logged(gateway, facets):
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "odd name", "props": {"facets": facets}})
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["code"]) == ("args.props.facets", "invalid_type"), field_error
    # The log's copy names every member in text (the JSON encoder refused a tuple, and sorting mixed names raised: the entry was lost).
    assert len(_logged(gateway, envelope["meta"]["trace_id"])["args"]["props"]["facets"]) == len(facets)


def test_an_object_of_thousands_of_members_is_cut_like_a_long_list(gateway):
    """Lists and long strings were cut to the bound, but an object was not: props of 30,000 numbers came back twice, about a megabyte."""
    props = {f"k{n}": n for n in range(30_000)}
    for dry_run in (True, False):
        envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": f"wide {dry_run}", "props": props}, dry_run=dry_run)
        assert envelope["ok"], envelope
        assert len(json.dumps(envelope)) < 3 * LIMIT
        cuts = {cut["path"]: cut for cut in envelope["meta"]["truncated"]}
        assert cuts["result.task.props"]["kind"] == "object" and cuts["result.task.props"]["total"] == 30_000
        kept = envelope["result"]["task"]["props"]
        assert 0 < len(kept) == cuts["result.task.props"]["shown"] and all(props[name] == value for name, value in kept.items())
        assert envelope["result"]["task"]["title"] == f"wide {dry_run}", "the record's own fields stay"
    with gateway.store.read() as tx:
        (stored,) = [row for row in tx.list("task", {"project_id": PROJECT}, limit=100).rows if row["title"] == "wide False"]
    assert stored["props"] == props, "only the answer was cut"


def test_an_object_of_thousands_of_long_strings_is_bounded_too(gateway):
    props = {f"k{n}": "v" * 300 for n in range(3_000)}
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "wide text", "props": props}, dry_run=True)
    assert envelope["ok"], envelope
    assert len(json.dumps(envelope)) < 3 * LIMIT


def test_a_wide_record_with_one_long_text_loses_the_text_not_its_fields(gateway):
    props = {f"field_{n}": n for n in range(100)} | {"notes": "n" * 100_000}
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "wide record", "props": props}, dry_run=True)
    assert envelope["ok"], envelope
    kept = envelope["result"]["task"]["props"]
    assert len(kept) == 101 and kept["notes"].startswith("nnn") and len(kept["notes"]) < 20_000


@pytest.mark.parametrize("key", ["half \ud800", "bytes \udcff"])
def test_an_idempotency_key_that_is_not_unicode_is_a_validation_error_and_writes_nothing(gateway, key):
    """The key is stored with the first answer: one holding a lone surrogate raised UnicodeEncodeError there, as INTERNAL."""
    before = _task_count(gateway)
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "keyed"}, idempotency_key=key)
    assert envelope["error"]["code"] == "VALIDATION_ERROR", envelope
    (field_error,) = envelope["error"]["details"]["field_errors"]
    assert (field_error["field"], field_error["code"]) == ("idempotency_key", "invalid_text"), field_error
    assert _task_count(gateway) == before
    json.dumps(envelope, ensure_ascii=False).encode("utf-8")
