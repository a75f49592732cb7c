"""Creates racing the deletion of what they point at: NOT_FOUND naming it, never INTERNAL, never an orphan row.

A create reads its project and references before it takes the write lock,
and on SQLite may write from that read snapshot. Another connection deleting
the project (or a plan the task names) in between must turn the create into
NOT_FOUND naming the missing entity, and leave no row pointing at nothing.
"""

from __future__ import annotations

import threading
from collections import Counter

from opgate.core import Gateway
from opgate.core.store import NotFound
from opgate.core.store._locate import connect_store

CREATORS = 3
CREATES = 24


def test_a_project_deleted_after_the_early_read_is_not_found_naming_it(tmp_path, new_workspace):
    """The window the race below can only hit by chance, opened on purpose: read the project, it is deleted, then insert."""
    location = new_workspace(tmp_path)
    with connect_store(location) as store, connect_store(location) as other:
        for names_a_plan in (False, True):
            with store.write() as tx:
                project = tx.insert("project", {"name": "Doomed"})["id"]
                plan = tx.insert("plan", {"project_id": project, "name": "Doomed plan"})["id"]
            try:
                with store.write(lock_late=True) as tx:
                    assert tx.find("project", project) is not None  # what the handler's early check saw
                    assert tx.find("plan", plan) is not None
                    with other.write() as elsewhere:
                        elsewhere.delete("project", project, cascade=True)
                    tx.insert("task", {"project_id": project, "title": "too late", **({"plan_id": plan} if names_a_plan else {})})
            except NotFound as exc:
                assert project in str(exc) or plan in str(exc)
            else:
                raise AssertionError("a task was created in a deleted project")
        with store.read() as tx:
            assert tx.list("task", {"title": "too late"}).total == 0


def test_creates_into_projects_and_plans_being_deleted_answer_not_found_or_succeed(tmp_path, new_workspace):
    location = new_workspace(tmp_path)
    gateway = Gateway(db_path=location, allow_write=True)
    with gateway.store.write() as tx:
        projects = [tx.insert("project", {"name": f"Doomed {i}"})["id"] for i in range(4)]
        plans = {project: tx.insert("plan", {"project_id": project, "name": "Doomed plan"})["id"] for project in projects}
    codes: Counter[str] = Counter()
    wrong: list[dict] = []
    start = threading.Barrier(CREATORS + 1)

    def create(n: int) -> None:
        start.wait()
        for i in range(CREATES):
            project = projects[(n + i) % len(projects)]
            args = {"project_id": project, "title": f"Raced {n}-{i}"}
            if i % 2:
                args["plan_id"] = plans[project]
            envelope = gateway.exec("onto.task.create", args)
            code = "ok" if envelope["ok"] else envelope["error"]["code"]
            codes[code] += 1
            named = not envelope["ok"] and (project in envelope["error"]["message"] or plans[project] in envelope["error"]["message"])
            if not envelope["ok"] and not (code == "NOT_FOUND" and named):
                wrong.append(envelope["error"])

    def delete() -> None:
        with connect_store(location) as other:
            start.wait()
            for project in projects:
                with other.write() as tx:
                    tx.delete("plan", plans[project])
                with other.write() as tx:
                    tx.delete("project", project, cascade=True)

    threads = [threading.Thread(target=create, args=(n,)) for n in range(CREATORS)] + [threading.Thread(target=delete)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    try:
        assert not any(thread.is_alive() for thread in threads)
        assert wrong == [], wrong[:3]
        assert sum(codes.values()) == CREATORS * CREATES and codes["NOT_FOUND"] > 0, codes
        with gateway.store.read() as tx:
            for project in projects:
                assert tx.find("project", project) is None
                assert tx.list("task", {"project_id": project}).total == 0  # nothing left pointing at a deleted project
    finally:
        gateway.close()
