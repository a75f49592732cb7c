"""The REPL fed through a pipe echoes a huge word cut short, in its transcript and in its errors."""

from __future__ import annotations

import os
import subprocess
import sys

HUGE = "z" * 100_000


def test_piped_lines_with_huge_words_print_back_short(tmp_path):
    lines = [f"onto.{HUGE}", f"help onto.{HUGE}", HUGE, f":{HUGE}", f"set {HUGE} on", f"set writes {HUGE}", f"history {HUGE}", f"cd {HUGE}", f"exec onto.task.list {HUGE}", f"batch\n{HUGE}\n\n"]
    env = os.environ | {"COLUMNS": "100", "NO_COLOR": "1"}
    done = subprocess.run(
        [sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), "repl"], input="\n".join(lines) + "\n",
        capture_output=True, text=True, timeout=120, env=env,
    )
    said = done.stdout + done.stderr
    assert done.returncode == 1 and "Traceback" not in said, said[:2000]
    # Ten lines, each echoed once in the transcript and once in its error, at most a few hundred characters each.
    assert len(said) < 12_000, len(said)
    assert said.count("characters)") >= 2 * len(lines) - 2, said[:4000]
