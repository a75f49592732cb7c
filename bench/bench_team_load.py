"""A team's gateway under load: 1, 2 and 4 ``opgate serve --http`` processes on one PostgreSQL, 1 on SQLite.

Run: python bench/bench_team_load.py [--processes 1 2 4] [--reads 3000] [--writes 600] [--concurrency 16]
     python bench/bench_team_load.py --json out.json   # the figures and the correctness counts, for tests

Setup: a throwaway PostgreSQL cluster (tests/pg_cluster.py: Debian's initdb
and pg_ctl, fsync off) unless ``--url`` names an empty database; the demo
workspace grown by ``--tasks`` tasks through the store; a copy of it in an
SQLite file (``db copy``); a writer token per configuration made with the
real ``opgate token create``, so the servers require it and each
configuration's calls log under their own name. Servers run with
``--allow-write --rate-limit 0`` (one token sends everything).

Every configuration's servers start together and stay up; each phase is
cut into ``--rounds`` slices and the configurations take turns, so that on
a machine shared with other jobs each sees the same background load:
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
on PostgreSQL (fresh servers): exactly one row, one first answer, every other a replay of it.

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
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests"))

from _rpc_load import Target, burst, exec_request, machine_busy, process_cpu, run_load  # noqa: E402
from _table import print_table  # noqa: E402
from _team_setup import (  # noqa: E402
    TOKEN_NAME,
    Servers,
    copy_to,
    cpu_spent,
    grow_workspace,
    make_token,
    postgres_cpu,
    scalar,
)

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
    """CPU of the servers, PostgreSQL and the whole machine, summed over the stretches between ``start`` and ``stop``."""

    def __init__(self, pids: list[int], pg_data: Path | None):
        self.pids, self.pg_data = pids, pg_data
        self.spent = {"servers": 0.0, "postgres": 0.0, "machine_busy": 0.0, "machine_total": 0.0}

    def start(self) -> None:
        self._servers = sum(process_cpu(p) for p in self.pids)
        self._pg = postgres_cpu(self.pg_data) if self.pg_data else {}
        self._machine = machine_busy()

    def stop(self) -> None:
        busy, total = machine_busy()
        self.spent["servers"] += sum(process_cpu(p) for p in self.pids) - self._servers
        self.spent["postgres"] += cpu_spent(self._pg, postgres_cpu(self.pg_data)) if self.pg_data else 0.0
        self.spent["machine_busy"] += busy - self._machine[0]
        self.spent["machine_total"] += total - self._machine[1]


@dataclass
class Config:
    """One deployment under test: ``processes`` servers on one workspace, with a token of its own (its calls log under its name)."""

    backend: str
    location: str
    processes: int
    pg_data: Path | None
    token_name: str = ""
    token: str = ""
    targets: list[Target] = field(default_factory=list)
    pids: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.backend.lower()}-{self.processes}"


def summary(answers: list, wall: float, generator_cpu: float, sampler: Sampler) -> dict:
    times = [a.seconds * 1000 for a in answers]
    ok = sum(a.ok for a in answers)
    spent = sampler.spent
    return {
        "requests": len(answers), "ok": ok, "errors": sorted({json.dumps((a.status, (a.envelope or {}).get("error", {}).get("code"))) for a in answers if not a.ok}),
        "throughput": len(answers) / wall, "p50_ms": percentile(times, 0.5), "p99_ms": percentile(times, 0.99), "wall_s": wall,
        "servers_cores": spent["servers"] / wall, "postgres_cores": spent["postgres"] / wall, "generator_cores": generator_cpu / wall,
        "machine_busy": spent["machine_busy"] / max(1e-9, spent["machine_total"]),
    }


def measure_all(configs: list[Config], work: Workload, options) -> list[dict]:
    """Every configuration's servers run at once; each phase goes in rounds, one slice per configuration in turn.

    On a shared machine the load from elsewhere comes and goes; taking turns
    in short slices gives every configuration the same share of it, instead
    of one configuration a quiet minute and the next a busy one.
    """
    rounds = max(1, options.rounds)
    results = {c.label: {"backend": c.backend, "processes": c.processes, "calls_sent": 0} for c in configs}
    with ExitStack() as stack:
        for c in configs:
            servers = stack.enter_context(Servers(c.location, c.processes))
            c.targets, c.pids = [Target.from_url(url) for url in servers.urls], servers.pids
            warm = work.reads(c.targets, c.token, 20 * c.processes)
            asyncio.run(run_load(c.targets, warm, c.processes))
            results[c.label]["calls_sent"] += len(warm)
        for kind, count in (("reads", options.reads), ("writes", options.writes)):
            plans = {c.label: (work.reads(c.targets, c.token, count) if kind == "reads" else work.writes(c.targets, c.token, c.label, count)) for c in configs}
            answers: dict[str, list] = {c.label: [] for c in configs}
            walls = dict.fromkeys(answers, 0.0)
            generator = dict.fromkeys(answers, 0.0)
            samplers = {c.label: Sampler(c.pids, c.pg_data) for c in configs}
            for r in range(rounds):
                for c in configs:
                    chunk = plans[c.label][r * count // rounds:(r + 1) * count // rounds]
                    samplers[c.label].start()
                    run = asyncio.run(run_load(c.targets, chunk, options.concurrency))
                    samplers[c.label].stop()
                    answers[c.label] += run.answers
                    walls[c.label] += run.wall
                    generator[c.label] += run.generator_cpu
            for c in configs:
                results[c.label][kind] = summary(answers[c.label], walls[c.label], generator[c.label], samplers[c.label])
                results[c.label]["calls_sent"] += len(answers[c.label])
    # The servers have stopped (SIGTERM) and written out their call logs.
    for c in configs:
        r = results[c.label]
        r["rows_written"] = scalar(c.location, "SELECT count(*) FROM tasks WHERE title LIKE ?", (f"load {work.tag} {c.label} %",))
        r["calls_logged"] = scalar(c.location, "SELECT count(*) FROM call_log WHERE caller = ?", (c.token_name,))
    return [results[c.label] for c in configs]


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
        per_cpu = {r["processes"]: r["reads"]["throughput"] / max(1e-9, r["reads"]["servers_cores"]) for r in results if r["backend"] == "PostgreSQL"}
        print(f"reads per server CPU-second, 2 / 1 processes: {per_cpu[2] / per_cpu[1]:.2f}x "
              "(near 1: nothing shared between processes makes a read dearer; then throughput follows the cores the servers get)")
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
    parser.add_argument("--rounds", type=int, default=5, help="slices each phase is cut into, the configurations taking turns")
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
            configs = [Config("PostgreSQL", url, n, pg_data) for n in options.processes]
            if not options.no_sqlite:
                configs.append(Config("SQLite", sqlite, 1, None))
            for c in configs:
                c.token_name = f"{TOKEN_NAME}-{c.label}"
                c.token = make_token(c.location, c.token_name)
            results = measure_all(configs, work, options)
            burst_result = None
            if options.idempotent_calls:
                burst_result = idempotent_burst(url, max(options.processes), configs[0].token, projects[0], options.idempotent_calls)
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
