"""A collection's dry-run on a PostgreSQL workspace rehearses on a scratch SQLite copy and leaves the database as it was."""

from __future__ import annotations

from collection_helpers import DEMO, PROJECT
from opgate.core import Gateway
from opgate.core.collection import load_collection, run_collection


def test_a_dry_run_on_postgres_rehearses_on_a_copy_and_writes_nothing(pg_cluster):
    url = pg_cluster.new_database()
    gateway = Gateway(db_path=url)
    try:
        before = gateway.store.dump()
        total = gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"]
        report = run_collection(gateway, load_collection(DEMO), dry_run=True)
        assert report.passed, [(c.call.name, c.failures) for c in report.calls]
        created = report.calls[2]
        assert created.how == "rehearsed on a scratch copy" and created.envelope["meta"]["diff"]["created"][0]["kind"] == "task"
        task_id = created.envelope["result"]["task"]["id"]
        assert report.calls[3].sent_args["task_id"] == task_id, "a later call used the id the rehearsed create made"
        assert gateway.exec("onto.task.list", {"project_id": PROJECT, "limit": 1})["result"]["total"] == total
        assert not gateway.exec("onto.task.get", {"task_id": task_id})["ok"]
        assert gateway.store.dump() == before
    finally:
        gateway.close()
        pg_cluster.give_back(url)
