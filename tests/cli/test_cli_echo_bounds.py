"""An input word of 100,000 characters is echoed back cut short, in real subprocesses.

``opgate help onto.<huge>`` printed the whole word back (100 KB), as did
argparse's errors, a word that is not key=value and a batch file's name.
"""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

HUGE = "x" * 100_000
SHOWN = "(100,000 characters)"

CASES = {
    "help of an unknown path": ["help", HUGE],
    "exec of an unknown op": ["exec", HUGE],
    "an unknown argument name": ["exec", "onto.task.list", f"{HUGE}=1"],
    "a word that is not key=value": ["exec", "onto.task.list", HUGE],
    "an unknown command": [HUGE],
    "an unknown option": ["exec", "onto.task.list", f"--{HUGE}"],
    "a batch file that cannot be opened": ["batch", HUGE],
    "search under an unknown group": ["search", "hello", "--path", HUGE],
    "an unknown context": ["--context", HUGE, "help"],
    "a configuration file that cannot be read": ["--config", HUGE, "help"],
    "a stats window that does not parse": ["stats", "--since", HUGE],
    "revoking a token nobody has": ["token", "revoke", HUGE],
}


@pytest.mark.parametrize("words", CASES.values(), ids=CASES.keys())
def test_a_huge_word_is_echoed_short(tmp_path, words):
    env = os.environ | {"COLUMNS": "100", "NO_COLOR": "1"}
    done = subprocess.run([sys.executable, "-m", "opgate", "--db", str(tmp_path / "w.db"), *words], capture_output=True, text=True, timeout=120, env=env)
    said = done.stdout + done.stderr
    assert done.returncode != 0 and "Traceback" not in said, said[:2000]
    assert len(said) < 4_000, said[:2000]
    assert "characters)" in said or "…" in said, said[:2000]
