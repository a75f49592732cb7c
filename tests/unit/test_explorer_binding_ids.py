"""The explorer's keys have one home, the core's key table: ``opgate config check`` reads its ids without
importing Textual, the explorer makes its bindings from it, and unknown ids in opgate.toml are warned about."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from opgate.core.config import EXPLORER_BINDING_IDS, EXPLORER_KEY_SECTIONS

TUI = Path(__file__).resolve().parents[2] / "tui"


def test_the_explorers_bindings_are_made_from_the_cores_key_table():
    from opgate.tui._keys import SECTIONS

    made = [(title, [(b.id, b.key, b.action, b.description, b.tooltip, b.show, b.priority, b.key_display) for b in bindings]) for title, bindings in SECTIONS]
    table = [(title, [(k.id, k.keys, k.action, k.description, k.tooltip, k.show, k.priority, k.key_display) for k in keys]) for title, keys in EXPLORER_KEY_SECTIONS]
    assert made == table
    assert {b for _, keys in table for b, *_ in keys} == EXPLORER_BINDING_IDS


def test_no_remappable_binding_is_declared_in_the_explorer_itself():
    """A second list of ids is the drift this table exists to end. (Dialogs keep their own local keys,
    which the keymap does not remap: Esc closes a dialog whatever opgate.toml says.)"""
    declared = [
        f"{path.relative_to(TUI)}: {match.group(1)}"
        for path in TUI.rglob("*.py")
        for match in re.finditer(r"id=\"(opgate\.[^\"]+)\"", path.read_text(encoding="utf-8"))
        if match.group(1) in EXPLORER_BINDING_IDS
    ]
    assert not declared, declared


def test_config_check_warns_about_a_keymap_id_no_binding_has(tmp_path):
    (tmp_path / "opgate.toml").write_text('[explorer.keymap]\n"opgate.dry_run" = "f7"\n"opgate.dryrun" = "f8"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "opgate", "--config", str(tmp_path / "opgate.toml"), "config", "check"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=os.environ | {"COLUMNS": "400", "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" in done.stdout and "explorer.keymap.opgate.dryrun: no explorer binding has this id" in done.stdout, done.stdout
    assert "opgate.dry_run:" not in done.stdout, "a known id is not warned about"
