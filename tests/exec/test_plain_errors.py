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



def _payment_op(tmp_path: Path, variants: list):
    """An op of a catalogue file whose argument is one of several tagged shapes."""
    import json

    from opgate.core.catalog import load_catalog
    from opgate.core.registry import build_registry

    tool = {"name": "pay_invoice", "description": "Pay an invoice by card or by bank transfer.",
            "inputSchema": {"type": "object", "required": ["payment"], "properties": {"payment": {"oneOf": variants}},
                            "$defs": {"bank": {"type": "object", "required": ["kind", "iban"],
                                               "properties": {"kind": {"enum": ["bank"]}, "iban": {"type": "string", "minLength": 15}}}}}}
    path = tmp_path / "billing.json"
    path.write_text(json.dumps({"tools": [tool]}))
    (record,) = build_registry(load_catalog(path))
    return record


CARD = {"type": "object", "required": ["kind", "number", "expiry"],
        "properties": {"kind": {"const": "card"}, "number": {"type": "string", "pattern": "^[0-9]{12,19}$"}, "expiry": {"type": "string"}}}


@pytest.mark.parametrize("bank", [{"$ref": "#/$defs/bank"}, {"type": "object", "required": ["kind", "iban"], "properties": {"kind": {"const": "bank"}, "iban": {"type": "string", "minLength": 15}}}])
def test_a_tagged_shape_says_what_its_own_variant_lacks(tmp_path: Path, bank: dict) -> None:
    """A value whose tag picks one variant of a oneOf was told only 'matches none of the accepted shapes'."""
    from opgate.core.exec._validation import ArgumentValidator

    record, validator = _payment_op(tmp_path, [CARD, bank]), ArgumentValidator()
    rows, headline = validator.check(record, {"payment": {"kind": "card", "number": "4111"}})
    assert {(row["field"], row["code"]) for row in rows} == {("args.payment.expiry", "missing_required"), ("args.payment.number", "pattern_mismatch")}, rows
    assert "accepted shapes" not in headline and "is not one of" not in headline, headline
    (row,), headline = validator.check(record, {"payment": {"kind": "bank", "iban": "DE89"}})
    assert row["field"] == "args.payment.iban" and row["code"] == "invalid_length" and headline == row["message"], (row, headline)
    # No tag that matches (or none at all): the shapes are named as before, nothing is guessed.
    for payment in ({"kind": "cash"}, {"number": "4111"}):
        (row,), _ = validator.check(record, {"payment": payment})
        assert row["field"] == "args.payment" and row["code"] == "no_matching_variant", row


def test_help_lists_the_shapes_a_tagged_argument_takes(tmp_path: Path) -> None:
    """Compact help said only 'object' for a oneOf of shapes, while the refusal sent the caller to help for them."""
    from opgate.core.registry import Registry
    from opgate.views import render_help

    record = _payment_op(tmp_path, [CARD, {"$ref": "#/$defs/bank"}, {"type": "null"}])
    gw = Gateway(registry=Registry([record]), db_path=tmp_path / "w.db")
    try:
        help_payload = gw.help(record.op)
        (row,) = help_payload["args"]
        assert row["shapes"] == ["kind=card: needs number, expiry", "kind=bank: needs iban", "null: no field required"], row
        import io

        from rich.console import Console

        console = Console(file=io.StringIO(), width=200, color_system=None)
        console.print(render_help(help_payload))
        assert "one of: kind=card: needs number, expiry; kind=bank: needs iban" in console.file.getvalue()
    finally:
        gw.close()
