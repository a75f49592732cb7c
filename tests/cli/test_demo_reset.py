"""``opgate demo reset``: in place, only on an opgate workspace, never on an empty --db.

Every test runs the real CLI in a subprocess against real files in tmp_path.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import apsw
import pytest

PROJECT = "10000000-0000-4000-8000-000000000001"
COMMANDS = ("explore", "repl", "help", "exec onto.task.list", "batch -", "demo reset", "search tasks",
            "discover list", "serve", "tools", "build")

# A process that keeps a Gateway open on the workspace and writes before and after a reset.
HOLDER = textwrap.dedent("""
    import json, sys
    from opgate.core import Gateway

    gateway = Gateway(db_path=sys.argv[1], allow_write=True)

    def create(title):
        envelope = gateway.exec("onto.task.create", {"project_id": %r, "title": title})
        task = (envelope.get("result") or {}).get("task") or {}
        print(json.dumps({"title": title, "ok": envelope["ok"], "id": task.get("id")}), flush=True)

    create("written before the reset")
    print("ready", flush=True)
    sys.stdin.readline()
    for n in range(3):
        create(f"written after the reset {n}")
    gateway.close()
""") % PROJECT


def opgate(*args: str, env: dict[str, str] | None = None, stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "opgate", *args], capture_output=True, text=True,
                          input=stdin, timeout=120, env=env)


def exec_json(db: Path, *words: str) -> dict:
    done = opgate("--db", str(db), "exec", *words, "--json")
    return json.loads(done.stdout)


def snapshot(folder: Path) -> dict[str, str]:
    """Every file in ``folder`` and a digest of its bytes."""
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in sorted(folder.iterdir())}


def test_reset_while_another_process_writes_loses_no_acknowledged_write(tmp_path):
    db = tmp_path / "workspace.db"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(db)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        before = json.loads(holder.stdout.readline())
        assert before["ok"] and holder.stdout.readline().strip() == "ready"
        inode = db.stat().st_ino

        reset = opgate("--db", str(db), "demo", "reset")
        assert reset.returncode == 0, reset.stdout + reset.stderr
        assert db.stat().st_ino == inode  # the same file, not a new one beside an unlinked one

        holder.stdin.write("\n")
        holder.stdin.flush()
        after = [json.loads(holder.stdout.readline()) for _ in range(3)]
        assert holder.wait(timeout=60) == 0
    finally:
        holder.kill() if holder.poll() is None else None
        holder.wait(timeout=60)
        holder.stdin.close()  # left to the collector, each pipe is a ResourceWarning
        holder.stdout.close()
    assert all(write["ok"] for write in after)
    # A third process sees every write the holder was told succeeded after the reset...
    for write in after:
        envelope = exec_json(db, "onto.task.get", f"task_id={write['id']}")
        assert envelope["ok"] and envelope["result"]["task"]["title"] == write["title"]
    # ...and the reset itself: the task written before it is gone with the rest of the old rows.
    assert exec_json(db, "onto.task.get", f"task_id={before['id']}")["error"]["code"] == "NOT_FOUND"


def test_reset_shows_what_it_replaces_before_replacing_it(tmp_path):
    db = tmp_path / "workspace.db"
    created = exec_json(db, "onto.task.create", json.dumps({"project_id": PROJECT, "title": "Gone after reset"}), "--allow-write")
    assert created["ok"]
    done = opgate("--db", str(db), "demo", "reset")
    assert done.returncode == 0
    out = " ".join(done.stdout.split())
    assert "holds 3 projects, 25 tasks" in out and "replaces all of it" in out
    assert out.index("holds") < out.index("demo workspace reset at")
    assert exec_json(db, "onto.task.search", "search=Gone after reset")["result"]["total"] == 0


def test_reset_creates_the_demo_where_there_is_no_file_yet(tmp_path):
    db = tmp_path / "new.db"
    assert opgate("--db", str(db), "demo", "reset").returncode == 0
    assert exec_json(db, "onto.project.get", f"project_id={PROJECT}")["ok"]


def _browser_history(path: Path) -> None:
    """An SQLite file of someone else's, in WAL mode like a browser's history."""
    conn = apsw.Connection(str(path))
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url TEXT, title TEXT)")
    conn.execute("INSERT INTO moz_places (url, title) VALUES ('https://www.sqlite.org/', 'SQLite')")
    conn.close()


@pytest.mark.parametrize("case", ["browser history", "empty file", "stray wal and shm", "notes"])
def test_reset_refuses_what_is_not_a_workspace_and_leaves_it_byte_for_byte(tmp_path, case):
    folder = tmp_path / "files"
    folder.mkdir()
    target = folder / "places.sqlite"
    if case == "browser history":
        _browser_history(target)
    elif case == "empty file":
        target.touch()
    elif case == "stray wal and shm":
        Path(f"{target}-wal").write_bytes(b"\x37\x7f\x06\x82" + bytes(60))
        Path(f"{target}-shm").write_bytes(bytes(32768))
    else:
        target.write_text("my notes\n")
    before = snapshot(folder)
    done = opgate("--db", str(target), "demo", "reset", "--yes")
    said = " ".join(done.stdout.split())
    assert done.returncode == 2
    assert "refusing to touch it" in said or "will not touch them" in said
    assert "Traceback" not in done.stdout + done.stderr
    assert snapshot(folder) == before


def _isolated_home(tmp_path: Path) -> dict[str, str]:
    home = tmp_path / "home"
    return {**os.environ, "HOME": str(home), "XDG_DATA_HOME": str(home / "data"), "XDG_CACHE_HOME": str(home / "cache")}


def test_an_empty_db_path_never_means_the_default_workspace(tmp_path):
    env = _isolated_home(tmp_path)
    default = Path(env["XDG_DATA_HOME"]) / "opgate" / "workspace.db"
    assert opgate("exec", "onto.task.create", json.dumps({"project_id": PROJECT, "title": "Mine"}), "--allow-write", env=env).returncode == 0
    for words in (("--db", "", "demo", "reset", "--yes"), ("demo", "reset", "--yes", "--db", "  ")):
        done = opgate(*words, env=env)
        assert done.returncode == 2 and "--db" in done.stderr and "empty" in done.stderr
        assert "Traceback" not in done.stderr
    search = opgate("exec", "onto.task.search", "search=Mine", "--json", env=env)
    assert json.loads(search.stdout)["result"]["total"] == 1 and default.exists()


@pytest.mark.parametrize("command", COMMANDS)
def test_every_command_refuses_an_empty_db_path(tmp_path, command):
    done = opgate("--db", "", *command.split(), env=_isolated_home(tmp_path))
    assert done.returncode == 2
    assert "argument --db: the path is empty" in done.stderr
    assert not (tmp_path / "home").exists()  # nothing was opened anywhere
