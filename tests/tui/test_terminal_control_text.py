"""Catalogue text cannot drive the terminal the explorer runs in: the real explorer in a real terminal (tmux).

An ESC in an op's summary reached the terminal: ``\\x1b]0;pwned\\x07`` set the
window title and ``\\x1b[2J`` cleared the screen (Textual, like Rich, drops
only BEL, BS, VT, FF and CR from text).
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid

from hostile_catalog import write_control_catalog

# tmux is the real terminal this draws in: .ci/run installs it, and without it these tests fail rather than skip.

SEQUENCES = "\x1b]0;pwned\x07 \x1b[2J\x1b[31mRED\x1b[0m \x9b31m C1 \u202eX\u2066Y"


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=10).stdout


def test_escape_sequences_in_catalogue_text_are_shown_not_sent(tmp_path):
    catalog = write_control_catalog(tmp_path, SEQUENCES)
    name = f"opgate-{uuid.uuid4().hex[:8]}"
    command = f"{sys.executable} -m opgate --catalog {catalog} --db {tmp_path / 'w.db'} explore"
    # A tmux server started earlier keeps its own environment: this test's is passed on.
    env = [f"-e{key}={os.environ[key]}" for key in ("PATH", "PYTHONPATH", "OPGATE_TREE", "HOME") if key in os.environ]
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "160", "-y", "40", *env, command], check=True, timeout=10)
    try:
        deadline = time.monotonic() + 60
        while "Summary" not in (screen := _tmux("capture-pane", "-p", "-t", name)) and time.monotonic() < deadline:
            time.sleep(0.3)
        time.sleep(1.0)  # a few more frames
        screen = _tmux("capture-pane", "-p", "-t", name)
        # Shown as the REPL shows them: each control as its escape, so a reader sees it is there.
        # (in pieces: a narrow pane wraps the summary at its spaces)
        for piece in ("Summary \\x1b]0;pwned\\x07", "\\x1b[2J\\x1b[31mRED\\x1b[0m", "\\x9b31m C1", "\\u202eX\\u2066Y"):
            assert piece in screen, screen
        assert "\u202e" not in screen
        assert "pwned" not in _tmux("display-message", "-p", "-t", name, "#{pane_title}")
        assert "sneaky" in screen, "the screen was not cleared"
    finally:
        _tmux("kill-session", "-t", name)
