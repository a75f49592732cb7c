"""Creates from several processes at once: every row written once, every id unique, every call logged.

A create reads before it takes the write lock and, on SQLite, writes from its
read snapshot when no other process has committed since (otherwise it takes
the lock and checks again). These tests race real processes on one workspace
(each backend) and then count what they left: a lost or doubled row, a
shared id or a missing call-log entry fails them.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import apsw
from opgate.core import Gateway

PROJECT = "10000000-0000-4000-8000-000000000001"
PROCESSES = 4
CREATES = 40


def _race(db: str, script: str) -> list[list[dict]]:
    """Start PROCESSES copies of ``script`` together; each prints one JSON line, and exits without closing its gateway."""
    workers = [
        subprocess.Popen([sys.executable, "-c", script, db, str(n)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        for n in range(PROCESSES)
    ]
    results = []
    for worker in workers:
        out, err = worker.communicate(timeout=300)
        assert worker.returncode == 0, err
        results.append(json.loads(out))
    return results


_CREATE_MANY = textwrap.dedent(f"""
    import json, sys
    from opgate.core import Gateway
    db, n = sys.argv[1], sys.argv[2]
    gateway = Gateway(db_path=db, allow_write=True)
    out = []
    for i in range({CREATES}):
        envelope = gateway.exec("onto.task.create", {{"project_id": {PROJECT!r}, "title": f"Raced {{n}}-{{i}}"}})
        out.append({{"ok": envelope["ok"], "id": envelope["ok"] and envelope["result"]["task"]["id"],
                    "title": envelope["ok"] and envelope["result"]["task"]["title"], "error": envelope.get("error")}})
    print(json.dumps(out))
    sys.exit(0)  # no close(): the call log must still reach the workspace
""")


def test_racing_creates_write_each_row_once_with_unique_ids_and_log_every_call(tmp_path, new_workspace, closed_after):
    db = str(new_workspace(tmp_path))
    seeding = Gateway(db_path=db)
    seeding.store  # create and seed once, before the other processes open it
    seeding.close()
    answers = [answer for batch in _race(db, _CREATE_MANY) for answer in batch]
    assert all(answer["ok"] for answer in answers), [a["error"] for a in answers if not a["ok"]][:3]
    expected = {f"Raced {n}-{i}" for n in range(PROCESSES) for i in range(CREATES)}
    assert {answer["title"] for answer in answers} == expected
    gateway = closed_after(Gateway(db_path=db))
    dump = gateway.store.dump()
    raced = [row for row in dump["tasks"] if row["title"].startswith("Raced ")]
    assert sorted(row["title"] for row in raced) == sorted(expected)  # none lost, none doubled
    every_id = [row["id"] for table in ("projects", "tasks", "goals", "plans", "documents") for row in dump[table]]
    assert len(every_id) == len(set(every_id))
    assert {row["id"] for row in raced} == {answer["id"] for answer in answers}
    with gateway.store.read() as tx:
        logged = [entry for entry in tx.calls_since(None) if entry["op"] == "onto.task.create" and entry["ok"]]
    assert len(logged) == PROCESSES * CREATES


_SAME_TITLE = textwrap.dedent(f"""
    import json, sys
    from opgate.core import Gateway
    db, n = sys.argv[1], sys.argv[2]
    gateway = Gateway(db_path=db, allow_write=True)
    out = []
    for i in range(10):
        envelope = gateway.exec("onto.task.create", {{"project_id": {PROJECT!r}, "title": "Everyone's task"}})
        out.append({{"ok": envelope["ok"], "warnings": envelope["meta"].get("warnings") or []}})
    print(json.dumps(out))
""")


def test_racing_creates_of_one_title_are_all_kept_and_later_ones_warn(tmp_path, new_workspace, closed_after):
    db = str(new_workspace(tmp_path))
    seeding = Gateway(db_path=db)
    seeding.store  # create and seed once, before the other processes open it
    seeding.close()
    answers = [answer for batch in _race(db, _SAME_TITLE) for answer in batch]
    assert all(answer["ok"] for answer in answers)
    # The title check is a warning, never a refusal: all are created; each process's own
    # second create at the latest finds its first one, so at most one per process is silent.
    silent = [a for a in answers if not any("already exists" in w for w in a["warnings"])]
    assert len(silent) <= PROCESSES
    gateway = closed_after(Gateway(db_path=db))
    assert len([row for row in gateway.store.dump()["tasks"] if row["title"] == "Everyone's task"]) == PROCESSES * 10


def test_a_create_runs_five_statements_when_nobody_else_writes(tmp_path):
    """BEGIN, the project, the title check, INSERT, COMMIT (raw apsw: 3); the diff names the project from the first read."""
    db = str(tmp_path / "ws.db")
    gateway = Gateway(db_path=db, allow_write=True, call_log=False)
    gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "warm up"})
    conn: apsw.Connection = gateway.store._connection()
    statements: list[str] = []
    conn.exec_trace = lambda _cursor, sql, _bindings: statements.append(sql.split()[0].upper()) or True
    envelope = gateway.exec("onto.task.create", {"project_id": PROJECT, "title": "traced"})
    conn.exec_trace = None
    gateway.close()
    assert envelope["ok"]
    assert statements == ["BEGIN", "SELECT", "SELECT", "INSERT", "COMMIT"]
    assert envelope["meta"]["names"][PROJECT]["kind"] == "project" and envelope["meta"]["names"][PROJECT]["name"]
