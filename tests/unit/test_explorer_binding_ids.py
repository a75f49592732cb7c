"""``opgate config check`` knows the explorer's binding ids without importing Textual, and warns about unknown ones."""

from __future__ import annotations

import os
import subprocess
import sys

from opgate.core.config import EXPLORER_BINDING_IDS


def test_the_cores_list_of_binding_ids_is_the_explorers():
    from opgate.tui._keys import BINDING_IDS

    assert EXPLORER_BINDING_IDS == BINDING_IDS


def test_config_check_warns_about_a_keymap_id_no_binding_has(tmp_path):
    (tmp_path / "opgate.toml").write_text('[explorer.keymap]\n"opgate.dry_run" = "f7"\n"opgate.dryrun" = "f8"\n', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "opgate", "--config", str(tmp_path / "opgate.toml"), "config", "check"],
        capture_output=True, text=True, timeout=60, cwd=tmp_path, env=os.environ | {"COLUMNS": "400", "NO_COLOR": "1"},
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "warning" in done.stdout and "explorer.keymap.opgate.dryrun: no explorer binding has this id" in done.stdout, done.stdout
    assert "opgate.dry_run:" not in done.stdout, "a known id is not warned about"
