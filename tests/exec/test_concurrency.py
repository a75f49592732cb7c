"""1,000 concurrent calls with one idempotency key, from threads and processes, create one entity (on each backend)."""

from __future__ import annotations

import multiprocessing
from concurrent.futures import ThreadPoolExecutor

from opgate.core import Gateway

PROJECT = "10000000-0000-4000-8000-000000000001"
ARGS = {"project_id": PROJECT, "title": "Created exactly once"}
KEY = "one-key-for-all"


def _hammer(db_path: str, calls: int) -> list[str]:
    gateway = Gateway(db_path=db_path, allow_write=True, call_log=False)
    with ThreadPoolExecutor(max_workers=8) as pool:
        envelopes = list(pool.map(lambda _: gateway.exec("onto.task.create", ARGS, idempotency_key=KEY), range(calls)))
    gateway.close()
    return [e["result"]["task"]["id"] if e["ok"] else e["error"]["code"] for e in envelopes]


def test_one_entity_from_a_thousand_calls(tmp_path, new_workspace, closed_after):
    db = str(new_workspace(tmp_path))
    seeding = Gateway(db_path=db)
    seeding.store  # create and seed once, before the other processes open it
    seeding.close()
    context = multiprocessing.get_context("spawn")
    with context.Pool(3) as pool:
        from_processes = pool.starmap(_hammer, [(db, 200)] * 3)
    from_threads = _hammer(db, 400)
    outcomes = [o for batch in from_processes for o in batch] + from_threads
    assert len(outcomes) == 1000
    ids = {o for o in outcomes if len(o) == 36}
    assert len(ids) == 1, set(outcomes) - ids
    gateway = closed_after(Gateway(db_path=db))
    created = [row for row in gateway.store.dump()["tasks"] if row["title"] == ARGS["title"]]
    assert len(created) == 1
