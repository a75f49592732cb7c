"""The store grown large on SQLite and on PostgreSQL: get, list and create latency.

Run: python bench/bench_postgres.py [--entities 20000] [--url postgresql://...]
     python bench/bench_postgres.py --entities 1000000   # the issue's size; takes a long while

Both backends get the same rows (60% tasks, 30% documents, 10% goals over 50
projects, inserted through the store in batches of 5,000 per transaction),
then each operation runs ``--repeat`` times in its own transaction:

- get: one task by id (a random one each time);
- list: 50 tasks of one project, most recently updated first, with the total;
- create: one task in its own write transaction (the write lock, the insert,
  the search index, the commit).

SQLite is the floor: the same store code on an embedded file, no network
hop. The ratio column is PostgreSQL over SQLite. Without ``--url`` the bench
starts a throwaway PostgreSQL cluster (Debian's initdb/pg_ctl, as the tests
do), with fsync off; pass ``--url`` to measure a real server.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core.store import connect_store  # noqa: E402

PROJECTS = 50
BATCH = 5000


def grow(store, entities: int) -> tuple[list[str], list[str]]:
    """Fill the store; return the project ids and the task ids."""
    with store.write() as tx:
        projects = [tx.insert("project", {"name": f"Bench project {i}"})["id"] for i in range(PROJECTS)]
    tasks: list[str] = []
    for start in range(0, entities, BATCH):
        with store.write() as tx:
            for i in range(start, min(start + BATCH, entities)):
                project = projects[i % PROJECTS]
                if i % 10 < 6:
                    tasks.append(tx.insert("task", {"project_id": project, "title": f"Bench task {i}", "priority": 1 + i % 5})["id"])
                elif i % 10 < 9:
                    tx.insert("document", {"project_id": project, "title": f"Bench doc {i}", "content": "lorem ipsum " * 5})
                else:
                    tx.insert("goal", {"project_id": project, "name": f"Bench goal {i}"})
    return projects, tasks


def timings(store, projects: list[str], tasks: list[str], repeat: int) -> dict[str, list[float]]:
    pick = random.Random(7)

    def get() -> None:
        with store.read() as tx:
            tx.get("task", pick.choice(tasks))

    def list_page() -> None:
        with store.read() as tx:
            tx.list("task", {"project_id": pick.choice(projects)}, limit=50, order="-updated_at")

    def create() -> None:
        with store.write() as tx:
            tx.insert("task", {"project_id": pick.choice(projects), "title": "Created while measuring"})

    return {name: measure(fn, repeat=repeat, warmup=5) for name, fn in (("get", get), ("list", list_page), ("create", create))}


def run(location, entities: int, repeat: int) -> tuple[dict[str, list[float]], float]:
    store = connect_store(location)
    try:
        started = time.perf_counter()
        projects, tasks = grow(store, entities)
        grown = time.perf_counter() - started
        return timings(store, projects, tasks, repeat), grown
    finally:
        store.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--entities", type=int, default=20_000, help="rows to grow each store to (the issue's size: 1000000)")
    parser.add_argument("--repeat", type=int, default=300, help="timed calls per operation")
    parser.add_argument("--url", help="an empty PostgreSQL database to use (default: a throwaway cluster)")
    args = parser.parse_args()
    cluster = None
    if args.url is None:
        from pg_cluster import PgCluster

        cluster = PgCluster()
        url = cluster.new_database()
    else:
        url = args.url
    try:
        with tempfile.TemporaryDirectory() as folder:
            sqlite, sqlite_grow = run(Path(folder) / "bench.db", args.entities, args.repeat)
        postgres, postgres_grow = run(url, args.entities, args.repeat)
    finally:
        if cluster is not None:
            cluster.stop()
    rows = []
    for name in ("get", "list", "create"):
        lite, pg = sqlite[name], postgres[name]
        rows.append([name, f"{median(lite):.3f}", f"{p95(lite):.3f}", f"{median(pg):.3f}", f"{p95(pg):.3f}",
                     f"{median(pg) / median(lite):.1f}x"])
    rows.append(["grow (s)", f"{sqlite_grow:.1f}", "", f"{postgres_grow:.1f}", "", f"{postgres_grow / sqlite_grow:.1f}x"])
    print_table(
        f"Store at {args.entities:,} entities (+{PROJECTS} projects), {args.repeat} calls each, ms",
        ["op", "SQLite median", "SQLite p95", "PostgreSQL median", "PostgreSQL p95", "PG/SQLite"],
        rows,
    )


if __name__ == "__main__":
    main()
