"""The explorer's pure parts: call text, diff and entity rendering, path matching, key data, a light import."""

from __future__ import annotations

import io
import json
import shlex
import subprocess
import sys

from rich.console import Console

from opgate.tui._calltext import as_cli, as_json, as_python
from opgate.tui._keys import ALL_KEYS, APP_KEYS, EXPLORER_BINDINGS
from opgate.tui._palette import Palette
from opgate.tui._render_result import render_diff, touched_entities
from opgate.tui.screens.jump import fuzzy_paths

ARGS = {"project_id": "p1", "flag": True, "gone": None, "n": [1, 2]}


def text_of(renderable) -> str:
    console = Console(width=120, file=io.StringIO(), record=True)
    console.print(renderable)
    return console.export_text()


def test_a_call_copies_as_json_cli_and_python():
    assert json.loads(as_json("onto.x.y", ARGS)) == {"op": "onto.x.y", "args": ARGS}
    words = shlex.split(as_cli("onto.x.y", ARGS, dry_run=True))
    assert words[:3] == ["opgate", "exec", "onto.x.y"] and json.loads(words[3]) == ARGS and words[4] == "--dry-run"
    python = as_python("onto.x.y", ARGS)
    assert python.startswith('gw.exec("onto.x.y", ') and eval(python[len('gw.exec("onto.x.y", '):-1]) == ARGS
    assert as_cli("util.buildos.overview", {}) == "opgate exec util.buildos.overview"


def test_the_diff_reads_line_by_line():
    diff = {
        "created": [{"kind": "task", "id": "t1", "row": {"title": "New"}}],
        "updated": [{"kind": "document", "id": "d1", "fields": {"parent_id": {"before": None, "after": "d0"}}}],
        "deleted": [{"kind": "goal", "id": "g1", "row": {"name": "Old"}}],
        "edges_added": [{"src_kind": "task", "src_id": "t1", "rel": "supports", "dst_kind": "goal", "dst_id": "g2"}],
        "edges_removed": [], "links_added": [{"task_id": "t1", "document_id": "d1", "role": "input"}], "links_removed": [],
    }
    shown = text_of(render_diff(diff, Palette(), names={"d1": "API Spec", "d0": {"kind": "document", "name": "Engineering"}}))
    assert "+ created task t1" in shown and '    title: "New"' in shown
    assert '~ updated document "API Spec" d1' in shown and 'parent: (root) → "Engineering" d0' in shown
    assert "- deleted goal g1" in shown
    assert "+ edge task t1 ─supports→ goal g2" in shown and '+ link task t1 ⇄ document "API Spec" d1 (input)' in shown
    assert "No changes" in text_of(render_diff({k: [] for k in diff}, Palette()))


def test_touched_entities_get_kinds_and_names_from_the_envelope():
    envelope = {
        "result": {"document": {"id": "d1", "title": "API Spec", "project_id": "p1", "parent_id": "d0"}},
        "meta": {"entities": ["d1", "p1", "d0", "x9"], "diff": {"updated": [{"kind": "document", "id": "x9", "fields": {}}]}},
    }
    assert touched_entities(envelope) == [("d1", "document", "API Spec"), ("p1", "project", ""), ("d0", "document", ""), ("x9", "document", "")]


def test_fuzzy_paths_rank_tight_matches_first():
    paths = ["onto.document.tree.move", "onto.document.tree.get", "onto.task.create", "util.web.search"]
    found = [p for _, p in fuzzy_paths("doctreemove", paths)]
    assert found[0] == "onto.document.tree.move" and "onto.task.create" not in found
    assert fuzzy_paths("", paths) == []


def test_every_key_has_an_id_a_tooltip_and_one_meaning():
    for binding in ALL_KEYS:
        assert binding.id and binding.id.startswith("opgate.") and binding.tooltip and binding.description
    keys = [b.key for b in EXPLORER_BINDINGS]
    assert len(keys) == len(set(keys))
    assert {b.id for b in APP_KEYS} <= {b.id for b in EXPLORER_BINDINGS}


def test_importing_the_package_does_not_load_textual():
    code = "import sys, opgate.tui; print(','.join(m for m in ('textual', 'rich', 'opgate.tui.app') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and result.stdout.strip() == ""


def test_copy_as_a_command_line_keeps_the_explorers_own_options():
    from opgate.tui._calltext import as_cli

    text = as_cli("mcp.github.action.get", {"owner": "o"}, global_options=["--catalog", "github=/x/tools.json", "--db", "/tmp/w.db"])
    assert text.startswith("opgate --catalog github=/x/tools.json --db /tmp/w.db exec mcp.github.action.get ")


def test_a_group_of_one_op_says_one_op():
    import io

    from rich.console import Console

    from opgate.core import Gateway
    from opgate.tui._palette import Palette
    from opgate.tui._render_help import render_group

    gw = Gateway(call_log=False)
    try:
        payload = gw.help("util.schema")
    finally:
        gw.close()
    console = Console(width=100, file=io.StringIO(), record=True)
    console.print(render_group(payload, Palette()))
    shown = console.export_text()
    assert "util.schema  1 op\n" in shown, shown
