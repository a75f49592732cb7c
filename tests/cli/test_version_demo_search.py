"""``opgate --version``, ``opgate --demo`` (a scratch demo workspace, gone at exit) and ``opgate search`` at a terminal."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys
import time
from importlib.metadata import version
from pathlib import Path


def opgate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "opgate", *args], capture_output=True, text=True, timeout=120, env=env)


def test_version_prints_the_installed_version():
    done = opgate("--version")
    assert done.returncode == 0 and done.stdout.strip() == f"opgate {version('opgate')}"


def test_demo_refuses_a_database_of_its_own(tmp_path: Path):
    done = opgate("--demo", "--db", str(tmp_path / "mine.db"))
    assert done.returncode == 2 and "--demo opens a scratch copy" in done.stderr
    assert not (tmp_path / "mine.db").exists()


def _read_for(fd: int, seconds: float) -> bytes:
    out = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            try:
                out += os.read(fd, 65536)
            except OSError:
                break
    return out


def _run_in_a_terminal(args: list[str], env: dict[str, str], until) -> tuple[int, bytes]:
    """Run opgate on a pseudo-terminal until ``until()`` holds, then press ctrl+q; its exit status and output."""
    main, child = pty.openpty()
    proc = subprocess.Popen([sys.executable, "-m", "opgate", *args], stdin=child, stdout=child, stderr=child, env=env, close_fds=True)
    os.close(child)
    output = b""
    try:
        deadline = time.monotonic() + 60
        while not until() and time.monotonic() < deadline:
            output += _read_for(main, 0.2)
        output += _read_for(main, 2.0)  # the first frame
        os.write(main, b"\x11")  # ctrl+q
        end = time.monotonic() + 30
        while proc.poll() is None and time.monotonic() < end:
            output += _read_for(main, 0.2)
        return proc.wait(timeout=5), output
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        os.close(main)


def test_demo_opens_on_a_scratch_copy_that_is_deleted_at_exit(tmp_path: Path):
    scratch_parent = tmp_path / "tmp"
    scratch_parent.mkdir()
    env = os.environ | {"TMPDIR": str(scratch_parent), "TERM": "xterm-256color", "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path / "data")}
    seen: list[Path] = []

    def scratch_made() -> bool:
        seen.extend(p for p in scratch_parent.glob("opgate-demo-*/demo.db") if p not in seen)
        return bool(seen)

    status, output = _run_in_a_terminal(["--demo"], env, scratch_made)
    assert status == 0, output[-2000:]
    assert seen, "the explorer ran on a workspace in a scratch folder"
    assert not list(scratch_parent.glob("opgate-demo-*")), "the scratch folder is gone after exit"
    assert not (tmp_path / "data").exists() or not list((tmp_path / "data").rglob("*.db")), "the person's own workspace was never touched"


def test_search_prints_a_table_at_a_terminal_and_json_when_piped(tmp_path: Path):
    piped = opgate("--db", str(tmp_path / "w.db"), "search", "move", "a", "document", "--limit", "2")
    assert piped.stdout.lstrip().startswith("{") and '"onto.document.tree.move"' in piped.stdout
    env = os.environ | {"TERM": "dumb", "COLUMNS": "160", "NO_COLOR": "1"}
    status, output = _run_in_a_terminal(["--db", str(tmp_path / "w.db"), "search", "move", "a", "document", "--limit", "2"], env, lambda: True)
    text = output.decode(errors="replace")
    assert "onto.document.tree.move" in text and "what it does" in text and '"results"' not in text
