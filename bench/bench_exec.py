"""exec overhead, exec latency on a large store, and batch against sequential calls.

Run: python bench/bench_exec.py [--entities 100000]
1. Overhead: exec of a trivial read handler minus calling the handler alone,
   against validating with ``jsonschema.validate`` afresh on every call (what
   a naive gateway does: it rebuilds the validator each time).
2. Latency of onto.task.list / onto.task.get / onto.task.create on a store
   grown to N entities (tasks, documents, goals spread over 50 projects).
3. A batch of independent reads against the same calls made one by one.
All figures are medians of repeated runs in one process, side by side.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import jsonschema  # noqa: E402
from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.exec import Handler  # noqa: E402
from opgate.core.store import open_store  # noqa: E402

PROJECT = "10000000-0000-4000-8000-000000000001"
TASK = "20000000-0000-4000-8000-000000000001"


def overhead_rows(folder: Path) -> list[list[object]]:
    def noop(ctx, args):
        return {"ok": True}

    gateway = Gateway(db_path=folder / "overhead.db", handlers={"onto.task.list": Handler(noop)}, call_log=False)
    record = gateway.registry.get("onto.task.list")
    args = {"project_id": PROJECT, "state_key": "todo", "limit": 10}
    store = gateway.store

    def handler_alone():
        with store.read() as tx:
            noop(tx, args)

    def naive_validation():
        jsonschema.validate(args, record.parameters, format_checker=jsonschema.Draft202012Validator.FORMAT_CHECKER)

    alone = median(measure(handler_alone, repeat=2000, warmup=50))
    through_exec = median(measure(lambda: gateway.exec("onto.task.list", args), repeat=2000, warmup=50))
    naive = median(measure(naive_validation, repeat=2000, warmup=50))
    overhead = through_exec - alone
    return [
        ["handler alone (read transaction + no-op)", f"{alone * 1000:.0f}"],
        ["exec (resolve, validate, authorize, run, envelope)", f"{through_exec * 1000:.0f}"],
        ["exec overhead beyond the handler", f"{overhead * 1000:.0f}"],
        ["jsonschema.validate afresh, per call", f"{naive * 1000:.0f}"],
        ["naive validation / exec overhead", f"{naive / overhead:.1f}x"],
    ]


def grow(store, entities: int) -> None:
    """Add ``entities`` rows: 60% tasks, 30% documents, 10% goals, over 50 new projects."""
    with store.write() as tx:
        projects = [tx.insert("project", {"name": f"Bench project {i}"})["id"] for i in range(50)]
        for i in range(entities):
            project = projects[i % 50]
            if i % 10 < 6:
                tx.insert("task", {"project_id": project, "title": f"Bench task {i} {uuid.uuid4().hex[:6]}", "priority": 1 + i % 5})
            elif i % 10 < 9:
                tx.insert("document", {"project_id": project, "title": f"Bench doc {i}", "content": "lorem ipsum " * 5})
            else:
                tx.insert("goal", {"project_id": project, "name": f"Bench goal {i}"})


def latency_rows(folder: Path, entities: int) -> list[list[object]]:
    store = open_store(folder / "large.db")
    grow(store, entities)
    gateway = Gateway(store=store, allow_write=True, call_log=False)
    cases = {
        "onto.task.list (project + state filter, limit 50)": ("onto.task.list", {"project_id": PROJECT, "state_key": "todo", "limit": 50}),
        "onto.task.list (no filter, limit 50)": ("onto.task.list", {"limit": 50}),
        "onto.task.get": ("onto.task.get", {"task_id": TASK}),
        "onto.task.create": ("onto.task.create", {"project_id": PROJECT, "title": "Created by the benchmark"}),
    }
    rows = []
    for label, (op, args) in cases.items():
        times = measure(lambda op=op, args=args: gateway.exec(op, args), repeat=200, warmup=5)
        rows.append([label, f"{median(times):.2f}", f"{p95(times):.2f}"])
    store.close()
    return rows


def batch_rows(folder: Path) -> list[list[object]]:
    gateway = Gateway(db_path=folder / "batch.db", call_log=False)
    calls = [("onto.project.list", {}), ("onto.task.list", {"project_id": PROJECT}), ("onto.document.tree.get", {"project_id": PROJECT}),
             ("onto.goal.list", {"project_id": PROJECT}), ("onto.risk.list", {"project_id": PROJECT}), ("onto.milestone.list", {"project_id": PROJECT})]
    steps = [{"tool": "exec", "args": {"op": op, "args": args}} for op, args in calls]
    sequential = median(measure(lambda: [gateway.exec(op, args) for op, args in calls], repeat=100, warmup=5))
    batched = median(measure(lambda: gateway.batch(steps), repeat=100, warmup=5))
    return [
        [f"{len(calls)} reads, one exec each", f"{sequential:.2f}"],
        [f"the same {len(calls)} reads as one batch", f"{batched:.2f}"],
        ["sequential / batch", f"{sequential / batched:.2f}x"],
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--entities", type=int, default=100_000)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        print_table("exec overhead (microseconds, median of 2,000 calls)", ["measure", "us"], overhead_rows(folder))
        print_table(f"exec latency on a store of {options.entities:,} more entities (ms)", ["call", "median", "p95"], latency_rows(folder, options.entities))
        print_table("batch against sequential calls, in process (ms, median of 100)", ["calls", "ms"], batch_rows(folder))
        print("\nIn process, a batch saves no network round trips, so its gain here is only the concurrent reads;"
              " for an agent each avoided round trip also saves a model turn.")


if __name__ == "__main__":
    main()
