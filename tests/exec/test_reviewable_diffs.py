"""A write's diff names what it touches, and the ids a dry-run shows are the ids the run creates."""

from __future__ import annotations

from pathlib import Path

import pytest

from opgate.core import Gateway
from opgate.core.diff_text import diff_lines, short_id

PROJECT = "10000000-0000-4000-8000-000000000001"
API_SPEC = "50000000-0000-4000-8000-000000000002"


@pytest.fixture
def gw(tmp_path: Path):
    gateway = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    yield gateway
    gateway.close()


def _created_ids(envelope: dict) -> list[str]:
    return [entry["id"] for entry in envelope["meta"]["diff"]["created"]]


def test_the_run_creates_the_ids_its_dry_run_showed(gw: Gateway) -> None:
    args = {"project_id": PROJECT, "title": "Write the spec"}
    dry = gw.exec("onto.task.create", args, dry_run=True)
    assert dry["ok"] and dry["meta"]["id_seed"]
    again = gw.exec("onto.task.create", args, dry_run=True, id_seed=dry["meta"]["id_seed"])
    assert _created_ids(again) == _created_ids(dry)
    run = gw.exec("onto.task.create", args, state_digest=dry["meta"]["state_digest"], id_seed=dry["meta"]["id_seed"])
    assert run["ok"] and _created_ids(run) == _created_ids(dry)
    assert gw.exec("onto.task.get", {"task_id": _created_ids(dry)[0]})["result"]["task"]["title"] == "Write the spec"


def test_a_used_seed_is_refused_and_writes_nothing(gw: Gateway) -> None:
    args = {"project_id": PROJECT, "title": "Once"}
    dry = gw.exec("onto.task.create", args, dry_run=True)
    assert gw.exec("onto.task.create", args, id_seed=dry["meta"]["id_seed"])["ok"]
    before = gw.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"]
    second = gw.exec("onto.task.create", args, id_seed=dry["meta"]["id_seed"])
    assert not second["ok"] and second["error"]["code"] == "CONFLICT" and "dry-run again" in second["error"]["message"]
    assert gw.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"] == before


def test_without_a_seed_each_dry_run_picks_fresh_ids(gw: Gateway) -> None:
    args = {"project_id": PROJECT, "title": "Fresh"}
    assert _created_ids(gw.exec("onto.task.create", args, dry_run=True)) != _created_ids(gw.exec("onto.task.create", args, dry_run=True))


def test_a_bad_seed_is_a_validation_error(gw: Gateway) -> None:
    envelope = gw.exec("onto.task.create", {"project_id": PROJECT, "title": "x"}, dry_run=True, id_seed="short")
    assert envelope["error"]["code"] == "VALIDATION_ERROR" and envelope["error"]["details"]["field_errors"][0]["field"] == "id_seed"


def test_the_confirmation_shows_the_ids_the_run_creates(tmp_path: Path) -> None:
    seen: list[list[str]] = []
    gw = Gateway(db_path=tmp_path / "w.db", allow_write=True)
    try:
        gw.approver = lambda request: bool(seen.append([e["id"] for e in request.diff.get("created", [])])) or True
        args = {"project": {"name": "Confirmed"}, "entities": [{"temp_id": "g", "kind": "goal", "name": "A goal"}], "relationships": []}
        dry = gw.exec("onto.project.create", args, dry_run=True)
        run = gw.exec("onto.project.create", args, id_seed=dry["meta"]["id_seed"])
        assert run["ok"], run
        assert len(_created_ids(run)) >= 2 and seen == [_created_ids(run)] and _created_ids(run) == _created_ids(dry)
    finally:
        gw.close()


def test_names_come_with_the_diff_and_read_next_to_ids(gw: Gateway) -> None:
    envelope = gw.exec("onto.task.create", {"project_id": PROJECT, "title": "Named"}, dry_run=True)
    names = envelope["meta"]["names"]
    assert names[PROJECT] == {"kind": "project", "name": "Relay 2.0 Launch"}
    text = "\n".join(line.text for line in diff_lines(envelope["meta"]["diff"], names))
    assert f'project: "Relay 2.0 Launch" {short_id(PROJECT)}' in text
    # Every field of the created row is shown, not only its title.
    for field in ("title: \"Named\"", "state_key:", "priority:", "props:"):
        assert field in text


def test_a_moved_document_reads_root_to_a_named_parent(gw: Gateway) -> None:
    docs = gw.exec("onto.document.list", {"project_id": PROJECT})["result"]["documents"]
    target = next(d for d in docs if d["id"] != API_SPEC)
    envelope = gw.exec("onto.document.tree.move", {"document_id": API_SPEC, "new_parent_id": target["id"]}, dry_run=True)
    assert envelope["ok"], envelope
    text = "\n".join(line.text for line in diff_lines(envelope["meta"]["diff"], envelope["meta"]["names"]))
    assert '~ updated document "API Spec"' in text
    assert f'parent: (root) → "{target["title"]}" {short_id(target["id"])}' in text


def test_a_batch_step_passes_the_seed_back_like_the_digest(gw: Gateway) -> None:
    args = {"project_id": PROJECT, "title": "Batched"}
    dry = gw.exec("onto.task.create", args, dry_run=True)
    seed, digest = dry["meta"]["id_seed"], dry["meta"]["state_digest"]
    [run] = gw.batch([{"tool": "exec", "args": {"op": "onto.task.create", "args": args, "id_seed": seed, "state_digest": digest}}])
    assert run["ok"] and _created_ids(run) == _created_ids(dry)


def test_a_caller_of_a_shared_gateway_gets_the_ids_of_its_own_dry_run(gw: Gateway) -> None:
    from opgate.core.access import Caller, acting_as
    from opgate.core.exec import Session

    args = {"project_id": PROJECT, "title": "By a writer"}
    with acting_as(Caller("wes", "writer", Session(caller="wes"))):
        dry = gw.exec("onto.task.create", args, dry_run=True)
        run = gw.exec("onto.task.create", args, id_seed=dry["meta"]["id_seed"])
    assert run["ok"] and _created_ids(run) == _created_ids(dry)
