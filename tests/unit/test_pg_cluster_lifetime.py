"""The session's PostgreSQL cluster ends with the session, even when pytest is killed.

A pytest of its own starts the cluster through the real ``pg_cluster`` fixture,
says where it is, and waits; it is then killed (SIGTERM, as a CI runner stops a
job, or SIGKILL), and the cluster's server must stop and its folder go.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parents[1]

CONFTEST = f"""
import sys
sys.path.insert(0, {str(TESTS)!r})
from pg_fixtures import pg_cluster
"""

HOLDS_THE_CLUSTER = """
import os, time
from pathlib import Path

def test_holds_the_cluster(pg_cluster):
    server_pid = (pg_cluster.data / "postmaster.pid").read_text().split()[0]
    Path(os.environ["CLUSTER_NOTE"]).write_text(f"{pg_cluster.root} {server_pid}")
    time.sleep(300)
"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return False
    return state != "Z"


def _processes_naming(folder: Path) -> list[int]:
    """Every running process whose command line names the folder (the server and its children)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes()
            except OSError:
                continue
            if str(folder).encode() in command and _running(int(entry.name)):
                found.append(int(entry.name))
    return found


@pytest.mark.parametrize("signal_number", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_a_killed_session_leaves_no_postgresql_running(tmp_path, signal_number):
    (tmp_path / "conftest.py").write_text(CONFTEST)
    (tmp_path / "test_inner.py").write_text(HOLDS_THE_CLUSTER)
    note = tmp_path / "cluster.txt"
    session = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--rootdir", str(tmp_path), str(tmp_path / "test_inner.py")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env={**os.environ, "CLUSTER_NOTE": str(note)},
    )
    try:
        deadline = time.monotonic() + 120
        while not note.exists() and session.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert note.exists(), f"the inner session never started its cluster:\n{session.stdout.read().decode() if session.poll() is not None else ''}"
        root, server_pid = note.read_text().split()
        assert _running(int(server_pid)) and _processes_naming(Path(root))
    finally:
        session.send_signal(signal_number)
        session.wait(timeout=60)
        session.stdout.close()
    deadline = time.monotonic() + 30
    while (_running(int(server_pid)) or Path(root).exists() or _processes_naming(Path(root))) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(int(server_pid)), "the cluster's server outlived the killed session"
    assert not _processes_naming(Path(root)), "processes of the cluster outlived the killed session"
    assert not Path(root).exists(), "the cluster's folder outlived the killed session"
