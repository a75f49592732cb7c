"""A call written down: the format follows the suffix, store text cannot break the Markdown, failures say why."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from opgate.core.call_report import report_format, report_markdown, write_report
from opgate.core.diff_text import diff_lines, short_id

DIFF = {
    "created": [{"kind": "document", "id": "d-new", "row": {"id": "d-new", "title": "```ignore me```", "parent_id": None, "project_id": "p1"}}],
    "updated": [], "deleted": [], "edges_added": [], "edges_removed": [], "links_added": [], "links_removed": [],
}
ENVELOPE = {"op": "onto.document.create", "ok": True, "result": {"document": {"title": "```ignore me```"}},
            "meta": {"dry_run": True, "dry_run_kind": "rollback", "diff": DIFF, "names": {"p1": {"kind": "project", "name": "Relay"}}, "trace_id": "tr_1"}}


def test_the_suffix_picks_the_format():
    assert report_format("a.md") == "markdown" and report_format("A.JSON") == "json" and report_format("a.txt") is None


def test_markdown_keeps_its_fences_whole_when_the_store_holds_backticks():
    text = report_markdown("onto.document.create", {"title": "```ignore me```"}, ENVELOPE, written_at="2026-03-01T09:00:00Z")
    assert text.startswith("# onto.document.create: dry-run, nothing was written")
    assert "````json" in text, "a longer fence than any run of backticks inside"
    assert '    - parent: (root)' in text and '    - project: "Relay" p1' in text


def test_a_json_report_round_trips_and_an_unknown_suffix_writes_nothing(tmp_path: Path):
    written = write_report(tmp_path / "sub" / "r.json", "onto.document.create", {"title": "x"}, ENVELOPE)
    report = json.loads(written.read_text(encoding="utf-8"))
    assert report["outcome"] == "dry-run, nothing was written" and report["envelope"] == ENVELOPE
    with pytest.raises(ValueError, match="name a .json or .md file"):
        write_report(tmp_path / "r.txt", "op", {}, ENVELOPE)
    assert not (tmp_path / "r.txt").exists()


def test_ids_without_a_name_still_read_short_and_a_null_reference_is_none():
    lines = [line.text for line in diff_lines({"updated": [{"kind": "task", "id": "20000000-0000-4000-8000-000000000001",
                                                          "fields": {"plan_id": {"before": "30000000-0000-4000-8000-000000000002", "after": None}}}]})]
    assert lines == ["~ updated task 20000000-0000-4000-8000-000000000001", f"plan: {short_id('30000000-0000-4000-8000-000000000002')} → (none)"]
