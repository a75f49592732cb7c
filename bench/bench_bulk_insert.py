"""A bulk insert in one write transaction: does its cost grow linearly with its size?

Run: python bench/bench_bulk_insert.py [--sizes 10000 100000] [--million]
(``--million`` adds a run of 1,000,000 entities: several minutes on each side.)
Each size inserts that many entities (60% tasks, 30% documents, 10% goals over
50 projects) into a fresh workspace in one ``store.write()``, and the same
rows through raw apsw (one transaction, plain INSERTs, no checks) as the
floor. Linear means the time per 1,000 entities stays flat as the size grows.

Before the read log kept a set of written ids, each document insert scanned
every id written so far: 100k entities took 428 s against 5.5 s for 10k.
Both sides run with the store's 64 MiB page cache (``CACHE_KIB``): with
SQLite's default 2 MiB, the random-keyed id index no longer fits past a few
hundred MB and every insert re-reads pages (100k raw inserts: 157 s against
57 s). A new document's position used to be a count of its siblings, which read the
whole folder on every insert (quadratic in the folder's size); it is now the
last sibling's position, one step down an index.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import apsw  # noqa: E402
from _table import print_table  # noqa: E402

from opgate.core.store import open_store  # noqa: E402
from opgate.core.store._sqlite_conn import CACHE_KIB  # noqa: E402

PROJECTS = 50


def rows_to_insert(entities: int) -> list[tuple[str, dict]]:
    rows = []
    for i in range(entities):
        if i % 10 < 6:
            rows.append(("task", {"title": f"Bench task {i} {uuid.uuid4().hex[:6]}", "priority": 1 + i % 5}))
        elif i % 10 < 9:
            rows.append(("document", {"title": f"Bench doc {i}", "content": "lorem ipsum " * 5}))
        else:
            rows.append(("goal", {"name": f"Bench goal {i}"}))
    return rows


def opgate_seconds(path: Path, rows: list[tuple[str, dict]]) -> float:
    store = open_store(path, demo=False)
    started = time.perf_counter()
    with store.write() as tx:
        projects = [tx.insert("project", {"name": f"Bench project {i}"})["id"] for i in range(PROJECTS)]
        for i, (kind, fields) in enumerate(rows):
            tx.insert(kind, {"project_id": projects[i % PROJECTS], **fields})
    elapsed = time.perf_counter() - started
    store.close()
    return elapsed


def raw_seconds(path: Path, rows: list[tuple[str, dict]]) -> float:
    """The floor: the same rows through apsw, on the same schema (made by opening the store once)."""
    open_store(path, demo=False).close()
    conn = apsw.Connection(str(path))
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # the page cache the store's connections have
    now = "2025-01-01T00:00:00Z"
    started = time.perf_counter()
    conn.execute("BEGIN IMMEDIATE")
    projects = [str(uuid.uuid4()) for _ in range(PROJECTS)]
    for n, project in enumerate(projects):
        conn.execute("INSERT INTO projects (id, name, state_key, type_key, props, created_at, updated_at) VALUES (?, ?, 'planning', 'project.generic', '{}', ?, ?)",
                     (project, f"Bench project {n}", now, now))
    positions: dict[str, int] = {}
    for i, (kind, fields) in enumerate(rows):
        project = projects[i % PROJECTS]
        if kind == "task":
            conn.execute("INSERT INTO tasks (id, project_id, title, state_key, type_key, priority, props, created_at, updated_at) VALUES (?, ?, ?, 'todo', 'task.generic', ?, '{}', ?, ?)",
                         (str(uuid.uuid4()), project, fields["title"], fields["priority"], now, now))
        elif kind == "document":
            position = positions.get(project, 0)
            positions[project] = position + 1
            conn.execute("INSERT INTO documents (id, project_id, title, content, state_key, type_key, position, props, created_at, updated_at) VALUES (?, ?, ?, ?, 'draft', 'document.note', ?, '{}', ?, ?)",
                         (str(uuid.uuid4()), project, fields["title"], fields["content"], position, now, now))
        else:
            conn.execute("INSERT INTO goals (id, project_id, name, state_key, type_key, props, created_at, updated_at) VALUES (?, ?, ?, 'draft', 'goal.generic', '{}', ?, ?)",
                         (str(uuid.uuid4()), project, fields["name"], now, now))
    conn.execute("COMMIT")
    elapsed = time.perf_counter() - started
    conn.close()
    return elapsed


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--million", action="store_true", help="add a run of 1,000,000 entities")
    options = parser.parse_args()
    if options.million and 1_000_000 not in options.sizes:
        options.sizes.append(1_000_000)
    table = []
    base_per_k = None
    with tempfile.TemporaryDirectory() as tmp:
        for size in options.sizes:
            rows = rows_to_insert(size)
            ours = opgate_seconds(Path(tmp) / f"opgate-{size}.db", rows)
            floor = raw_seconds(Path(tmp) / f"raw-{size}.db", rows)
            per_k = ours / size * 1000
            base_per_k = base_per_k or per_k
            table.append([f"{size:,}", f"{ours:.2f}", f"{floor:.2f}", f"{ours / floor:.1f}x",
                          f"{ours / size * 1e6:.0f}", f"{floor / size * 1e6:.0f}", f"{per_k / base_per_k:.2f}x"])
    print_table(
        "bulk insert in one write transaction (s); growth = opgate's cost per entity against the first size (1.00x is linear)",
        ["entities", "opgate s", "raw apsw s", "opgate / raw", "opgate us/entity", "raw us/entity", "growth"], table,
    )


if __name__ == "__main__":
    main()
