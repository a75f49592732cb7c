"""The pieces of a team's deployment for the load benches: a workspace, a token, server processes.

A workspace here is the demo workspace grown with ``tasks`` more tasks
spread over its projects, written through the store (so every trigger and
index is maintained as in real use). Server processes are real
``opgate serve --http`` commands on loopback, each on its own port; the
bench balances requests over them itself.
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

from opgate.core.store import open_store

BATCH = 2000
TOKEN_NAME = "bench"
OPGATE = [sys.executable, "-m", "opgate"]
"""How a server process is started; an experiment may point it at a wrapper that changes one thing."""


def grow_workspace(location: str, tasks: int) -> tuple[list[str], list[str]]:
    """Seed the demo (a fresh location) and add ``tasks`` tasks; return the project ids and every task id."""
    store = open_store(location)
    try:
        with store.read() as tx:
            rows, _ = tx.list("project", {})
            projects = [row["id"] for row in rows]
        for start in range(0, tasks, BATCH):
            with store.write() as tx:
                for i in range(start, min(start + BATCH, tasks)):
                    tx.insert("task", {"project_id": projects[i % len(projects)], "title": f"Grown task {i}",
                                       "description": "Work that a busy team keeps in its tracker. " * 3, "priority": 1 + i % 5,
                                       "state_key": ("todo", "in_progress", "blocked", "done")[i % 4]})
        with store.read() as tx:
            rows, _ = tx.list("task", {}, fields=["id"])
            task_ids = [row["id"] for row in rows]
        return projects, task_ids
    finally:
        store.close()


def copy_to(source: str, target: str) -> None:
    from opgate.core.store._copy import copy_workspace

    report = copy_workspace(source, target)
    if not report.matches:
        raise RuntimeError(f"the copy of {source} to {target} does not match: {report}")


def opgate(location: str, *words: str) -> str:
    return subprocess.run([sys.executable, "-m", "opgate", "--db", location, *words], capture_output=True, text=True, check=True).stdout


def make_token(location: str, name: str = TOKEN_NAME, role: str = "writer") -> str:
    """A token made by the real ``opgate token create`` (so the servers turn authentication on)."""
    return json.loads(opgate(location, "token", "create", "--name", name, "--role", role, "--json"))["token"]


class Servers:
    """``count`` ``opgate serve --http`` processes on one workspace; a context manager that stops them."""

    def __init__(self, location: str, count: int):
        self.processes: list[subprocess.Popen] = []
        self.urls: list[str] = []
        command = [*OPGATE, "--db", location, "serve", "--http", "127.0.0.1:0", "--allow-write", "--rate-limit", "0"]
        try:
            for _ in range(count):
                self.processes.append(subprocess.Popen(command, stdin=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
            for process in self.processes:
                self.urls.append(_listening_url(process, command))
        except BaseException:
            self.stop()
            raise

    @property
    def pids(self) -> list[int]:
        return [p.pid for p in self.processes]

    def stop(self) -> None:
        """SIGTERM, as a service manager would: uvicorn shuts down and the gateway writes out its call log."""
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def __enter__(self) -> Servers:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _listening_url(process: subprocess.Popen, command: list[str]) -> str:
    assert process.stderr is not None
    for line in process.stderr:
        if match := re.search(r"listening on (http://\S+)", line):
            # Keep reading what the server says, so that a full pipe never stops it; warnings still reach our stderr.
            threading.Thread(target=_relay, args=(process.stderr,), daemon=True).start()
            return match.group(1)
    raise RuntimeError(f"{' '.join(command)} did not start (exit {process.wait()})")


def _relay(stream) -> None:
    for line in stream:
        sys.stderr.write(line)


def scalar(location: str, sql: str, params: tuple = ()) -> int:
    """One number from bare SQL on either backend (``?`` placeholders)."""
    if location.startswith(("postgresql://", "postgres://")):
        import psycopg

        with psycopg.connect(location, autocommit=True) as conn:
            return conn.execute(sql.replace("?", "%s"), params).fetchone()[0]
    import apsw

    conn = apsw.Connection(location, flags=apsw.SQLITE_OPEN_READONLY)
    try:
        return conn.execute(sql, params).fetchone()[0]
    finally:
        conn.close()


def postgres_cpu(data_dir: Path) -> dict[int, float]:
    """CPU seconds so far of each process of the cluster (the postmaster and its children: one backend per connection)."""
    from _rpc_load import process_cpu

    postmaster = int((data_dir / "postmaster.pid").read_text().split()[0])
    found = {postmaster: process_cpu(postmaster)}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                ppid = int(stat.read().rsplit(")", 1)[1].split()[1])
            if ppid == postmaster:
                found[int(entry)] = process_cpu(int(entry))
        except (OSError, ValueError):
            continue  # a process that ended while we looked
    return found


def cpu_spent(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU used between two ``postgres_cpu`` samples (a process new since counts from zero)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())
