"""A team's gateway under load: 1, 2 and 4 ``opgate serve --http`` processes on one PostgreSQL, 1 on SQLite.

Run: python bench/bench_team_load.py [--processes 1 2 4] [--reads 3000] [--writes 600] [--concurrency 16]
     python bench/bench_team_load.py --json out.json   # the figures and the correctness counts, for tests

Setup: a throwaway PostgreSQL cluster (tests/pg_cluster.py: Debian's initdb
and pg_ctl, fsync off) unless ``--url`` names an empty database; the demo
workspace grown by ``--tasks`` tasks through the store; a copy of it in an
SQLite file (``db copy``); a writer token on each made with the real
``opgate token create``, so the servers require it. Servers run with
``--allow-write --rate-limit 0`` (one token sends everything).

Each configuration runs, on fresh server processes:
- reads: ``--reads`` tools/call of ``exec``, alternating ``onto.task.list``
  (one project, a state, 20 rows) and ``onto.task.get`` (a random task);
- writes: ``--writes`` ``onto.task.create``, each with a unique title.
Requests are raw HTTP/1.1 POSTs in the 2026-07-28 stateless style
(``_rpc_load``), ``--concurrency`` keep-alive connections spread evenly
over the processes. The table gives throughput, p50 and p99, and the CPU
that the servers, PostgreSQL and the generator itself used, in cores.

Correctness (counted, never timed): every write answered ok is one row in
the tasks table and no row exists that was not answered ok; every call is
in the call log once the servers have stopped. Then ``--idempotent-calls``
concurrent creates with one idempotency key over the largest process count
on PostgreSQL: exactly one row, one first answer, every other a replay of it.

Goal (issue 14): reads on PostgreSQL at least 1.6x from 1 to 2 processes on
a 2-core machine, and nothing lost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _rpc_load import Target, burst, exec_request, machine_busy, process_cpu, run_load  # noqa: E402
from _table import print_table  # noqa: E402
from _team_setup import TOKEN_NAME, Servers, copy_to, cpu_spent, grow_workspace, make_token, postgres_cpu, scalar  # noqa: E402

GOAL_READ_SCALING = 1.6


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


class Workload:
    """The requests of one run, built before the clock starts."""

    def __init__(self, projects: list[str], tasks: list[str], seed: int = 7):
        self.projects, self.tasks, self.pick = projects, tasks, random.Random(seed)
        self.tag = uuid.uuid4().hex[:8]

    def reads(self, targets: list[Target], token: str, count: int) -> list[list[bytes]]:
        calls = []
        for i in range(count):
            if i % 2:
                call = ("onto.task.get", {"task_id": self.pick.choice(self.tasks)})
            else:
                call = ("onto.task.list", {"project_id": self.pick.choice(self.projects), "state_key": self.pick.choice(["todo", "in_progress"]), "limit": 20})
            calls.append([exec_request(t, token, *call, rpc_id=i) for t in targets])
        return calls

    def writes(self, targets: list[Target], token: str, label: str, count: int) -> list[list[bytes]]:
        return [[exec_request(t, token, "onto.task.create", {"project_id": self.projects[i % len(self.projects)], "title": self.title(label, i)}, rpc_id=i)
                 for t in targets] for i in range(count)]

    def title(self, label: str, i: int) -> str:
        return f"load {self.tag} {label} {i}"


class Sampler:
    """CPU of the servers, PostgreSQL, the generator and the whole machine between ``start`` and ``stop``."""

    def __init__(self, pids: list[int], pg_data: Path | None):
        self.pids, self.pg_data = pids, pg_data

    def start(self) -> None:
        self._servers = sum(process_cpu(p) for p in self.pids)
        self._pg = postgres_cpu(self.pg_data) if self.pg_data else {}
        self._machine = machine_busy()

    def stop(self) -> dict[str, float]:
        busy, total = machine_busy()
        spent = {"servers": sum(process_cpu(p) for p in self.pids) - self._servers,
                 "postgres": cpu_spent(self._pg, postgres_cpu(self.pg_data)) if self.pg_data else 0.0}
        spent["machine_busy"] = (busy - self._machine[0]) / max(1e-9, total - self._machine[1])
        return spent


def phase(targets: list[Target], requests: list[list[bytes]], concurrency: int, sampler: Sampler) -> dict:
    sampler.start()
    run = asyncio.run(run_load(targets, requests, concurrency))
    cpu = sampler.stop()
    times = run.latencies_ms()
    return {
        "requests": len(run.answers), "ok": run.ok_count, "errors": sorted({json.dumps((a.status, (a.envelope or {}).get("error", {}).get("code"))) for a in run.answers if not a.ok}),
        "throughput": run.throughput, "p50_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99), "wall_s": run.wall,
        "servers_cores": cpu["servers"] / run.wall, "postgres_cores": cpu["postgres"] / run.wall,
        "generator_cores": run.generator_cpu / run.wall, "machine_busy": cpu["machine_busy"],
    }


def measure(backend: str, location: str, processes: int, token: str, work: Workload, options, pg_data: Path | None) -> dict:
    label = f"{backend}-{processes}"
    logged_before = scalar(location, "SELECT count(*) FROM call_log WHERE caller = ?", (TOKEN_NAME,))
    sent = 0
    with Servers(location, processes) as servers:
        targets = [Target.from_url(url) for url in servers.urls]
        sampler = Sampler(servers.pids, pg_data)
        warm = work.reads(targets, token, 20 * processes)
        asyncio.run(run_load(targets, warm, processes))
        reads = phase(targets, work.reads(targets, token, options.reads), options.concurrency, sampler)
        writes = phase(targets, work.writes(targets, token, label, options.writes), options.concurrency, sampler)
        sent = len(warm) + reads["requests"] + writes["requests"]
    rows = scalar(location, "SELECT count(*) FROM tasks WHERE title LIKE ?", (f"load {work.tag} {label} %",))
    logged = scalar(location, "SELECT count(*) FROM call_log WHERE caller = ?", (TOKEN_NAME,)) - logged_before
    return {"backend": backend, "processes": processes, "reads": reads, "writes": writes,
            "rows_written": rows, "calls_sent": sent, "calls_logged": logged}


def idempotent_burst(location: str, processes: int, token: str, project: str, calls: int) -> dict:
    """``calls`` creates at once with one idempotency key, over ``processes`` servers: exactly one write."""
    key, title = f"bench-{uuid.uuid4().hex}", f"idempotent {uuid.uuid4().hex[:8]}"
    with Servers(location, processes) as servers:
        targets = [Target.from_url(url) for url in servers.urls]
        answers, retried, wall = asyncio.run(burst(
            targets, lambda t: exec_request(t, token, "onto.task.create", {"project_id": project, "title": title}, idempotency_key=key), calls))
    ok = [a for a in answers if a.ok]
    replays = [a for a in ok if a.envelope["meta"].get("idempotent_replay")]
    ids = {json.dumps(a.envelope["result"], sort_keys=True) for a in ok}
    times = [a.seconds * 1000 for a in answers]
    return {
        "calls": calls, "processes": processes, "ok": len(ok), "first_answers": len(ok) - len(replays), "replays": len(replays),
        "distinct_results": len(ids), "retried": retried, "wall_s": wall, "p50_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99),
        "rows": scalar(location, "SELECT count(*) FROM tasks WHERE title = ?", (title,)),
        "keys": scalar(location, "SELECT count(*) FROM idempotency_keys WHERE key = ?", (key,)),
    }


def report(results: list[dict], burst_result: dict | None, options) -> None:
    base = {r["backend"]: r for r in results if r["processes"] == 1}
    for kind in ("reads", "writes"):
        rows = []
        for r in results:
            m = r[kind]
            peer = base[r["backend"]][kind]["throughput"]
            rows.append([r["backend"], r["processes"], f"{m['throughput']:.0f}", f"{m['p50_ms']:.1f}", f"{m['p99_ms']:.1f}",
                         f"{m['ok']}/{m['requests']}", f"{m['servers_cores']:.2f}", f"{m['postgres_cores']:.2f}", f"{m['generator_cores']:.2f}",
                         f"{m['machine_busy']:.0%}", f"{m['throughput'] / max(1e-9, m['servers_cores']):.0f}",
                         f"{m['throughput'] / peer:.2f}x"])
        what = "onto.task.list / get alternating" if kind == "reads" else "onto.task.create, unique titles"
        print_table(f"{kind}: {what}; {options.concurrency} connections over the processes; CPU in cores",
                    ["backend", "procs", "calls/s", "p50 ms", "p99 ms", "ok", "servers", "postgres", "generator", "machine busy", "calls/server-CPU-s", "vs 1 proc"], rows)
    rows = [[r["backend"], r["processes"], r["writes"]["ok"], r["rows_written"], r["calls_sent"], r["calls_logged"],
             "yes" if lossless(r) else "NO"] for r in results]
    print_table("nothing lost: writes answered ok against rows in the tasks table; calls sent against call-log entries",
                ["backend", "procs", "writes ok", "rows", "calls sent", "calls logged", "exact"], rows)
    pg = {r["processes"]: r["reads"]["throughput"] for r in results if r["backend"] == "PostgreSQL"}
    if "SQLite" in base and 1 in pg:
        print(f"\nreads, PostgreSQL 1 process / SQLite 1 process: {pg[1] / base['SQLite']['reads']['throughput']:.2f}x")
    if 1 in pg and 2 in pg:
        scaling = pg[2] / pg[1]
        print(f"goal: reads on PostgreSQL >= {GOAL_READ_SCALING}x from 1 to 2 processes ({'met' if scaling >= GOAL_READ_SCALING else 'NOT met'}: {scaling:.2f}x)")
    if burst_result:
        b = burst_result
        print_table(f"{b['calls']} concurrent creates with one idempotency key over {b['processes']} PostgreSQL processes",
                    ["rows written", "keys stored", "first answers", "replays", "distinct results", "retried (busy)", "wall s", "p50 ms", "p99 ms"],
                    [[b["rows"], b["keys"], b["first_answers"], b["replays"], b["distinct_results"], b["retried"], f"{b['wall_s']:.2f}",
                      f"{b['p50_ms']:.0f}", f"{b['p99_ms']:.0f}"]])
        print(f"exactly one write: {'yes' if exactly_once(b) else 'NO'}")


def lossless(r: dict) -> bool:
    return r["writes"]["ok"] == r["rows_written"] and r["calls_sent"] == r["calls_logged"]


def exactly_once(b: dict) -> bool:
    return b["rows"] == 1 and b["keys"] == 1 and b["first_answers"] == 1 and b["ok"] == b["calls"] and b["distinct_results"] == 1


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, nargs="+", default=[1, 2, 4], help="server process counts on PostgreSQL")
    parser.add_argument("--reads", type=int, default=3000)
    parser.add_argument("--writes", type=int, default=600)
    parser.add_argument("--concurrency", type=int, default=16, help="keep-alive connections, spread over the processes")
    parser.add_argument("--tasks", type=int, default=10_000, help="tasks added to the demo workspace")
    parser.add_argument("--idempotent-calls", type=int, default=1000, help="concurrent creates with one key (0: skip)")
    parser.add_argument("--no-sqlite", action="store_true", help="skip the SQLite peer")
    parser.add_argument("--url", help="an empty, migrated PostgreSQL database (default: a throwaway cluster)")
    parser.add_argument("--json", type=Path, help="also write the figures and counts here")
    options = parser.parse_args()
    cluster = None
    if options.url is None:
        from pg_cluster import PgCluster

        cluster = PgCluster()
    try:
        url = options.url or cluster.new_database()
        pg_data = cluster.data if cluster else None
        with tempfile.TemporaryDirectory() as folder:
            started = time.perf_counter()
            projects, tasks = grow_workspace(url, options.tasks)
            sqlite = str(Path(folder) / "team.db")
            if not options.no_sqlite:
                copy_to(url, sqlite)
            print(f"workspace: {len(projects)} projects, {len(tasks):,} tasks on each backend, ready in {time.perf_counter() - started:.0f} s", flush=True)
            work = Workload(projects, tasks)
            pg_token = make_token(url)
            results = [measure("PostgreSQL", url, n, pg_token, work, options, pg_data) for n in options.processes]
            if not options.no_sqlite:
                results.append(measure("SQLite", sqlite, 1, make_token(sqlite), work, options, None))
            burst_result = None
            if options.idempotent_calls:
                burst_result = idempotent_burst(url, max(options.processes), pg_token, projects[0], options.idempotent_calls)
    finally:
        if cluster is not None:
            cluster.stop()
    report(results, burst_result, options)
    if options.json:
        options.json.write_text(json.dumps({"runs": results, "idempotency": burst_result}, indent=2))
    correct = all(lossless(r) for r in results) and (burst_result is None or exactly_once(burst_result))
    return 0 if correct else 1


if __name__ == "__main__":
    sys.exit(main())
