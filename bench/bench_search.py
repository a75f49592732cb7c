"""Search quality and speed, measured through ``gw.search()`` (what every front end and agent gets).

Run: python bench/bench_search.py [--no-semantic] [--no-default] [--no-eval] [--sets=own,multi,dev,devmulti,long,stories,situations,neighbours,scenes,heldout,toollens]

Quality, as R@1, R@5 and NDCG@5 (percent) of the ranked pointers
``gw.search(query, limit=5)`` answers, per query set and ranker:

- the built-in catalogue's everyday requests (``bench/data/builtin_requests.json``),
  its tuning part and its held-back part (never tuned on), with R@5 per style
  and the count of empty answers;
- the MetaTool dev split (tuning allowed), and long requests of several
  sentences made from it (``metatool_dev_long``: one to three dev queries
  wrapped in scene-setting; tuning allowed);
- situational requests for the dev split's tools written for this project
  (``metatool_dev_stories.json``: a situation told, the tools not named;
  its tuning part and its held-back part), and a second such set written in
  session 8 (``metatool_dev_situations.json``: longer, the situation first,
  then the goal; tuning and held-back parts), and a third (session 9,
  ``metatool_dev_neighbours.json``) for tools that have a near neighbour in
  the split, each request saying what tells the two apart; and a fourth
  (session 12, ``metatool_dev_scenes.json``): a scene in a sentence or
  three, then the request, often for two or three tools;
- requests for several ops at once, every op labelled (``multi``:
  ``builtin_multi_requests.json`` for the built-in catalogue; ``devmulti``:
  ``metatool_dev_multi.json``, two or three dev tools each), their tuning
  and held-back parts, with R@5 per style;
- the MetaTool held-out split and ToolLens test: evaluation only, aggregate
  figures, no query is ever printed (``--no-eval`` skips them).

A request with several parts (several ops) scores the share of its parts
found, as MetaTool's multi-tool queries do. Then the calibration of the
confidences (dev sets), and ``gw.search()`` latency on Twilio's 1,447 ops.
"""

from __future__ import annotations

import math
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _search_data import TWILIO, Query, QuerySet, metatool_dev, metatool_dev_long, metatool_dev_multi, metatool_dev_neighbours, metatool_dev_scenes, metatool_dev_situations, metatool_dev_stories, metatool_heldout, own_multi_sets, own_sets, toollens  # noqa: E402
from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core import Gateway  # noqa: E402
from opgate.core.search import semantic_available  # noqa: E402

CUTOFF = 5
MULTI_STYLES = ("chain", "comma", "goal", "typo", "terse")
BANDS = ["<0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", ">=0.8"]


def _found(slot: frozenset[str], hit: dict) -> bool:
    return hit["op"] in slot or hit["tool_name"] in slot


def score(query: Query, hits: list[dict]) -> tuple[float, float, float]:
    """R@1, R@5 and NDCG@5 of one answer, each in 0..1."""
    slots = query.slots
    top = hits[:CUTOFF]
    r1 = sum(any(_found(s, h) for h in top[:1]) for s in slots) / len(slots)
    r5 = sum(any(_found(s, h) for h in top) for s in slots) / len(slots)
    open_slots = list(slots)
    dcg = 0.0
    for position, hit in enumerate(top):
        for slot in open_slots:
            if _found(slot, hit):
                dcg += 1 / math.log2(position + 2)
                open_slots.remove(slot)
                break
    ideal = sum(1 / math.log2(i + 2) for i in range(min(CUTOFF, len(slots))))
    return r1, r5, dcg / ideal


class Tally:
    def __init__(self) -> None:
        self.sums = [0.0, 0.0, 0.0]
        self.count = 0
        self.empty = 0
        self.by_style: dict[str, list[float]] = defaultdict(lambda: [0.0, 0])
        self.bands = [[0, 0] for _ in BANDS]
        self.brier = [0.0, 0]

    def add(self, query: Query, hits: list[dict]) -> None:
        values = score(query, hits)
        self.sums = [a + b for a, b in zip(self.sums, values)]
        self.count += 1
        self.empty += not hits
        style = self.by_style[query.style]
        style[0] += values[1]
        style[1] += 1
        for hit in hits[:CUTOFF]:
            right = any(_found(s, hit) for s in query.slots)
            band = self.bands[min(len(BANDS) - 1, int(hit["confidence"] * len(BANDS)))]
            band[0] += right
            band[1] += 1
            self.brier[0] += (hit["confidence"] - right) ** 2
            self.brier[1] += 1

    def row(self) -> list[str]:
        return [f"{100 * v / max(1, self.count):.1f}" for v in self.sums] + [str(self.empty)]


def run(query_set: QuerySet, ranker: str) -> tuple[Tally, float]:
    start = time.perf_counter()
    gateway = query_set.gateway(search=ranker)
    gateway.search("warm up the index", limit=CUTOFF)
    build = time.perf_counter() - start
    tally = Tally()
    for query in query_set.queries:
        answer = gateway.search(query.text, limit=CUTOFF)
        tally.add(query, answer.get("results", []) if answer.get("ok") else [])
    gateway.close()
    return tally, build


def main() -> None:
    rankers = [] if "--no-default" in sys.argv else ["default"]
    if "--no-semantic" not in sys.argv and semantic_available():
        rankers.append("semantic")
    chosen = next((a.split("=", 1)[1] for a in sys.argv if a.startswith("--sets=")), "own,multi,dev,devmulti,long,stories,situations,neighbours,scenes,heldout,toollens").split(",")
    if "--no-eval" in sys.argv:
        chosen = [c for c in chosen if c not in ("heldout", "toollens")]
    loaders = {"own": own_sets, "dev": lambda: [metatool_dev()], "long": lambda: [metatool_dev_long()], "stories": metatool_dev_stories, "situations": metatool_dev_situations, "neighbours": metatool_dev_neighbours, "scenes": metatool_dev_scenes, "multi": own_multi_sets, "devmulti": metatool_dev_multi, "heldout": lambda: [metatool_heldout()], "toollens": lambda: [toollens()]}
    rows, styles, multi_styles, calibration = [], [], [], []
    for key in filter(None, chosen):
        for query_set in loaders[key]():
            for ranker in rankers:
                tally, build = run(query_set, ranker)
                rows.append([query_set.name, ranker, len(query_set.queries), *tally.row()])
                if key == "own":
                    styles.append([query_set.name, ranker, *(f"{100 * s / n:.1f} ({n})" for s, n in (tally.by_style[k] for k in ("direct", "indirect", "terse", "typo", "multi")))])
                if key in ("multi", "devmulti"):
                    multi_styles.append([query_set.name, ranker, *(f"{100 * s / n:.1f} ({n})" if n else "-" for s, n in (tally.by_style[k] for k in MULTI_STYLES))])
                if key in ("own", "multi", "dev", "devmulti"):
                    cells = [f"{100 * r / n:.0f}% of {n}" if n else "-" for r, n in tally.bands]
                    calibration.append([query_set.name, ranker, *cells, f"{tally.brier[0] / max(1, tally.brier[1]):.3f}"])
                print(f"  ... {query_set.name} / {ranker} done ({build:.1f}s to build): R@1, R@5, NDCG@5 {' '.join(tally.row()[:3])}", file=sys.stderr)
    print_table("Quality through gw.search(query, limit=5)", ["query set", "ranker", "queries", "R@1", "R@5", "NDCG@5", "empty"], rows)
    if styles:
        print_table("R@5 by style (queries)", ["query set", "ranker", "direct", "indirect", "terse", "typo", "multi"], styles)
    if multi_styles:
        print_table("Several ops per request: R@5 by style (queries)", ["query set", "ranker", *MULTI_STYLES], multi_styles)
    if calibration:
        print_table("Confidence of the top five pointers: share right, by band", ["query set", "ranker", *BANDS, "Brier"], calibration)
    print_table("gw.search() on Twilio (1,447 ops), one thread", ["ranker", "measure", "median", "p95", "x floor"], speed_rows(rankers))


TWILIO_QUERIES = [
    "send an sms", "list phone numbers", "buy a phone number", "release a phone number", "mute a participant in a conference",
    "fetch call recording", "make an outbound call", "hang up a call", "create a video room", "add a participant to a conversation",
    "send a verification code", "look up a phone number", "create a messaging service", "fetch account balance", "rotate auth token",
    "create a task in taskrouter", "update worker activity", "create a sync document", "transcribe a recording", "create a sip trunk",
]


# New queries (the first time a text is searched, what an agent mostly sends): each of TWILIO_QUERIES this many times.
NEW_ROUNDS = 5


# Requests for several ops: each facet is ranked too, so these cost more than one search.
TWILIO_MULTI = [
    "send an sms and make an outbound call", "list phone numbers, then release the old one", "create a video room and add a participant",
    "fetch the call recording and transcribe it", "create a messaging service; send a verification code", "buy a phone number and create a sip trunk",
    "look up a phone number and send an sms to it", "update worker activity and create a task in taskrouter", "fetch account balance and rotate auth token",
    "mute a participant in a conference, then hang up the call",
]


def speed_rows(rankers: list[str]) -> list[list[object]]:
    rows: list[list[object]] = []
    for ranker in rankers:
        start = time.perf_counter()
        gateway = Gateway.from_catalogs([f"twilio={TWILIO}"], search=ranker, call_log=False)
        gateway.search("warm up", limit=5)
        build = (time.perf_counter() - start) * 1000
        latencies: list[float] = []
        for query in TWILIO_QUERIES:
            latencies += measure(lambda g=gateway, q=query: g.search(q, limit=10), repeat=20)
        fresh: list[float] = []
        # Each query five times over, each time with a number it never had: 100 searches of text not seen before.
        for i, query in enumerate(TWILIO_QUERIES * NEW_ROUNDS):
            fresh += measure(lambda g=gateway, q=f"{query} {i}": g.search(q, limit=10), repeat=1, warmup=0)
        several: list[float] = []
        for query in TWILIO_MULTI:
            several += measure(lambda g=gateway, q=query: g.search(q, limit=10), repeat=20)
        rows.append([ranker, "catalogue load + index build (ms)", f"{build:.0f}", "-", "-"])
        rows.append([ranker, f"search, {len(TWILIO_QUERIES)} queries x 20 (ms)", f"{median(latencies):.2f}", f"{p95(latencies):.2f}", "-"])
        # Against the single requests of the same run: each facet of a request is one more ranking.
        rows.append([ranker, f"search, {len(TWILIO_MULTI)} requests for several ops x 20 (ms)", f"{median(several):.2f}", f"{p95(several):.2f}", f"{median(several) / median(latencies):.2f} x single"])
        semantic = gateway.search_index.semantic
        floor: list[float] = []
        if semantic is not None:
            # The floor: embedding the query alone (the model's forward pass), measured in the same run.
            for i, query in enumerate(TWILIO_QUERIES):
                floor += measure(lambda s=semantic, q=f"{query} {i} again": s._embed_query(q), repeat=1, warmup=0)
            rows.append([ranker, "  floor: embedding a new query alone (ms)", f"{median(floor):.2f}", f"{p95(floor):.2f}", "1.00"])
        ratio = f"{median(fresh) / median(floor):.2f}" if floor else "-"
        rows.append([ranker, "search, first time for a query (ms)", f"{median(fresh):.2f}", f"{p95(fresh):.2f}", ratio])
        gateway.close()
    return rows


if __name__ == "__main__":
    main()
