"""The read path after its speed-ups: digests still guard reads, envelopes stay writable and bounded.

A plain read no longer hashes what it read, and an envelope that needs no
scrubbing or cutting is no longer copied; these tests pin down that nothing
a caller relies on changed with it.
"""

from __future__ import annotations

import json

from opgate.core.exec import Handler

PROJECT = "10000000-0000-4000-8000-000000000001"  # the demo workspace's first project


def test_a_read_dry_run_hands_out_a_digest_that_a_later_read_checks(make_gateway):
    gateway = make_gateway(allow_write=True)
    args = {"project_id": PROJECT, "limit": 5}
    preview = gateway.exec("onto.task.list", args, dry_run=True)
    digest = preview["meta"]["state_digest"]
    assert gateway.exec("onto.task.list", args, state_digest=digest)["ok"]
    assert "state_digest" not in gateway.exec("onto.task.list", args)["meta"]  # a plain read hashes nothing
    gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "Arrived in between"})
    stale = gateway.exec("onto.task.list", args, state_digest=digest)
    assert stale["error"]["code"] == "CONFLICT"


def test_text_that_is_not_unicode_in_a_result_is_replaced_in_the_answer(make_gateway):
    handlers = {"onto.goal.get": Handler(lambda ctx, args: {"goal": {"id": "g-1", "title": "bad \udcff text", "list": ["ok", "\ud800"]}})}
    envelope = make_gateway(handlers=handlers).exec("onto.goal.get", {"goal_id": "30000000-0000-4000-8000-000000000001"})
    assert envelope["result"]["goal"]["title"] == "bad \ufffd text" and envelope["result"]["goal"]["list"] == ["ok", "\ufffd"]
    json.dumps(envelope, ensure_ascii=False).encode("utf-8")  # writable as UTF-8


def test_a_clean_answer_is_neither_copied_nor_cut(make_gateway):
    row = {"id": "g-1", "title": "plain"}
    handlers = {"onto.goal.get": Handler(lambda ctx, args: {"goal": row})}
    envelope = make_gateway(handlers=handlers).exec("onto.goal.get", {"goal_id": "30000000-0000-4000-8000-000000000001"})
    assert envelope["result"]["goal"] == row and "truncated" not in envelope["meta"]
    assert envelope["meta"]["entities"] == ["g-1"]


def test_a_long_warning_is_still_cut_and_the_handlers_objects_are_left_alone(make_gateway):
    long_text = "w" * 5000
    warnings_seen: list[str] = []

    def handler(ctx, args):
        ctx.warn(long_text)
        warnings_seen.extend(ctx.warnings)
        return {"goal": {"id": "g-1"}}

    envelope = make_gateway(handlers={"onto.goal.get": Handler(handler)}).exec("onto.goal.get", {"goal_id": "30000000-0000-4000-8000-000000000001"})
    assert len(envelope["meta"]["warnings"][0]) < 2000 and envelope["meta"]["truncated"]
    assert warnings_seen == [long_text]
