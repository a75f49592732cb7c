"""``opgate db migrate``, ``opgate db copy``, ``OPGATE_DB`` and ``demo reset --force``, on real databases.

Each test runs the real CLI in a subprocess, against SQLite files in tmp_path
and databases of the session's PostgreSQL cluster.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

from opgate.core.store import connect_store, open_store

WORKSPACE_TABLES = ("projects", "goals", "plans", "milestones", "documents", "tasks", "outputs", "risks",
                    "decisions", "requirements", "templates", "edges", "task_documents")


def opgate(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "opgate", *args], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "COLUMNS": "1000", **(env or {})}, stdin=subprocess.DEVNULL)


def contents(location) -> dict:
    with connect_store(location) as store:
        dump = store.dump()
    return {table: dump[table] for table in WORKSPACE_TABLES}


def test_copy_moves_a_workspace_to_postgres_and_back_unchanged(tmp_path, pg_cluster):
    source = tmp_path / "source.db"
    with open_store(source) as store, store.write() as tx:
        tx.pin_upstream_tools("memory", {"read_graph": ("abc", {"name": "read_graph"})})
    url = pg_cluster.new_database(migrated=False)
    there = opgate("db", "copy", "--from", str(source), "--to", url)
    assert there.returncode == 0, there.stderr + there.stdout
    assert "matches" in there.stdout
    back = tmp_path / "back.db"
    again = opgate("db", "copy", "--from", url, "--to", str(back))
    assert again.returncode == 0, again.stderr + again.stdout
    original = contents(source)
    assert contents(url) == original and contents(back) == original
    assert sum(len(rows) for rows in original.values()) > 50
    with connect_store(url) as store, store.read() as tx:
        assert set(tx.upstream_pins("memory")) == {"read_graph"}
        # The copy keeps insertion order too: ties on created_at come back in the same order.
        assert [r["id"] for r in tx.list("task", order="created_at").rows] == \
            [r["id"] for r in _tasks_in_order(source)]


def _tasks_in_order(location):
    with connect_store(location) as store, store.read() as tx:
        return tx.list("task", order="created_at").rows


def test_copy_refuses_a_target_that_holds_rows(tmp_path, pg_cluster):
    source = tmp_path / "source.db"
    open_store(source).close()
    url = pg_cluster.new_database()
    open_store(url).close()  # the demo
    before = contents(url)
    refused = opgate("db", "copy", "--from", str(source), "--to", url)
    assert refused.returncode == 2
    assert "already holds rows" in refused.stdout
    assert contents(url) == before


def test_migrate_brings_a_blank_postgres_database_to_the_schema(pg_cluster):
    url = pg_cluster.new_database(migrated=False)
    done = opgate("--db", url, "db", "migrate")
    assert done.returncode == 0, done.stderr + done.stdout
    assert "schema version" in done.stdout
    with connect_store(url) as store, store.read() as tx:
        assert tx.list("project").total == 0  # migrating seeds nothing


def test_opgate_db_selects_a_postgres_workspace(pg_cluster):
    url = pg_cluster.new_database()
    with open_store(url, demo=False) as store, store.write() as tx:
        project = tx.insert("project", {"name": "Only in PostgreSQL"})
    done = opgate("exec", "onto.project.list", "--json", env={"OPGATE_DB": url})
    assert done.returncode == 0, done.stderr + done.stdout
    names = [p["name"] for p in json.loads(done.stdout)["result"]["projects"]]
    assert names == ["Only in PostgreSQL"] and project["id"]


def test_demo_reset_refuses_someone_elses_workspace_unless_forced(tmp_path, new_workspace):
    location = new_workspace(tmp_path)
    with open_store(location) as store, store.write() as tx:
        tx.insert("project", {"name": "The team's real work"})
    refused = opgate("--db", str(location), "demo", "reset", "--yes")
    assert refused.returncode == 2
    assert "not the demo" in refused.stdout
    assert "The team's real work" in [p["name"] for p in contents(location)["projects"]]
    forced = opgate("--db", str(location), "demo", "reset", "--yes", "--force")
    assert forced.returncode == 0, forced.stderr + forced.stdout
    assert "The team's real work" not in [p["name"] for p in contents(location)["projects"]]
    again = opgate("--db", str(location), "demo", "reset", "--yes")  # the demo itself resets freely
    assert again.returncode == 0, again.stderr + again.stdout
