"""Search quality on the MetaTool dev split, and search speed on Twilio's 1,447 ops.

Run: python bench/bench_search.py [--no-semantic]
Reads ../shared/data/search/metatool_dev.json and
../shared/data/catalogs/twilio_openapi_tools.json in place. One run prints
R@1, R@5 and NDCG@5 for the plain BM25 baseline, the default search and,
when the ``semantic`` extra is installed, the embeddings alone and the hybrid;
then index build time and query latency (one thread) on Twilio.
"""

from __future__ import annotations

import json
import math
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

from _table import measure, median, p95, print_table  # noqa: E402

from opgate.core import OpRecord, build_registry, load_catalog  # noqa: E402
from opgate.core.catalog import CatalogLoad, ToolDefinition  # noqa: E402
from opgate.core.search import SearchIndex, semantic_available  # noqa: E402
from opgate.core.search._baseline import BM25Baseline  # noqa: E402

SHARED = Path(__file__).resolve().parents[2] / "shared" / "data"
DEV_SPLIT = SHARED / "search" / "metatool_dev.json"
TWILIO = SHARED / "catalogs" / "twilio_openapi_tools.json"
CUTOFF = 5

# Plausible requests to a Twilio gateway with the ops that answer them, written
# by hand (not from any benchmark). An empty tuple: no single right op.
TWILIO_QUERIES: list[tuple[str, tuple[str, ...]]] = [
    ("send an sms", ("api_v2010.message.create",)),
    ("send a text message to a customer", ("api_v2010.message.create",)),
    ("list phone numbers", ("api_v2010.incoming_phone_number.list",)),
    ("buy a phone number", ("api_v2010.incoming_phone_number.create",)),
    ("release a phone number", ("api_v2010.incoming_phone_number.delete",)),
    ("delete a conference participant", ("api_v2010.participant.delete",)),
    ("mute a participant in a conference", ("api_v2010.participant.update",)),
    ("list conferences", ("api_v2010.conference.list",)),
    ("fetch call recording", ("api_v2010.call_recording.fetch", "api_v2010.recording.fetch")),
    ("delete a recording", ("api_v2010.recording.delete", "api_v2010.call_recording.delete")),
    ("start recording a call", ("api_v2010.call_recording.create",)),
    ("make an outbound call", ("api_v2010.call.create",)),
    ("hang up a call", ("api_v2010.call.update",)),
    ("update a call in progress", ("api_v2010.call.update",)),
    ("list calls from yesterday", ("api_v2010.call.list",)),
    ("create a video room", ("video_v1.room.create",)),
    ("end a video room", ("video_v1.room.update",)),
    ("list participants of a video room", ("video_v1.room_participant.list",)),
    ("create a conversation", ("conversations_v1.conversation.create", "conversations_v1.service_conversation.create")),
    ("add a participant to a conversation", ("conversations_v1.conversation_participant.create", "conversations_v1.service_conversation_participant.create")),
    ("send a message in a conversation", ("conversations_v1.conversation_message.create", "conversations_v1.service_conversation_message.create")),
    ("list conversation messages", ("conversations_v1.conversation_message.list", "conversations_v1.service_conversation_message.list")),
    ("verify a phone number", ("verify_v2.verification.create",)),
    ("send a verification code", ("verify_v2.verification.create",)),
    ("check a verification code", ("verify_v2.verification_check.create",)),
    ("create a verify service", ("verify_v2.service.create",)),
    ("look up a phone number", ("lookups_v2.phone_number.fetch", "lookups_v1.phone_number.fetch")),
    ("carrier information for a number", ("lookups_v1.phone_number.fetch", "lookups_v2.phone_number.fetch")),
    ("create a messaging service", ("messaging_v1.service.create",)),
    ("add a phone number to a messaging service", ("messaging_v1.phone_number.create",)),
    ("list message logs", ("api_v2010.message.list",)),
    ("delete a message", ("api_v2010.message.delete",)),
    ("fetch account balance", ("api_v2010.balance.fetch",)),
    ("list usage records", ("api_v2010.usage_record.list",)),
    ("create an api key", ("api_v2010.new_key.create", "iam_v1.new_key.create")),
    ("rotate auth token", ("accounts_v1.auth_token_promotion.update", "accounts_v1.secondary_auth_token.create")),
    ("create a subaccount", ("api_v2010.account.create",)),
    ("list queues", ("api_v2010.queue.list", "taskrouter_v1.task_queue.list")),
    ("create a task in taskrouter", ("taskrouter_v1.task.create",)),
    ("list workers", ("taskrouter_v1.worker.list",)),
    ("update worker activity", ("taskrouter_v1.worker.update",)),
    ("create a sync document", ("sync_v1.document.create",)),
    ("update a sync map item", ("sync_v1.sync_map_item.update",)),
    ("list flex flows", ("flex_v1.flex_flow.list",)),
    ("create a webhook", ()),
    ("configure status callback url", ()),
    ("transcribe a recording", ("intelligence_v2.transcript.create", "api_v2010.realtime_transcription.create")),
    ("list sip domains", ("api_v2010.sip_domain.list",)),
    ("create a sip trunk", ("trunking_v1.trunk.create",)),
    ("port a number in", ("numbers_v1.porting_port_in.create",)),
    ("register a brand for a2p 10dlc", ("messaging_v1.brand_registration.create",)),
]


def dev_split() -> tuple[list[OpRecord], list[dict]]:
    """The dev split's tools as registry records (no argument schemas: MetaTool has none) and its queries."""
    data = json.loads(DEV_SPLIT.read_text(encoding="utf-8"))
    empty = {"type": "object", "properties": {}}
    tools = [ToolDefinition(name=t["name"], description=t["description"], parameters=empty, namespace="metatool", source=str(DEV_SPLIT)) for t in data["tools"]]
    registry = build_registry([CatalogLoad(str(DEV_SPLIT), "metatool", tools)])
    by_name = {t["name"]: t["id"] for t in data["tools"]}
    records = [r for r in registry if r.tool_name in by_name]
    return records, data["queries"]


def quality(rank: Callable[[str], list[str]], queries: list[dict]) -> list[str]:
    """R@1, R@5 and NDCG@5 in percent; recall counts the share of a query's relevant tools found."""
    r1 = r5 = ndcg = 0.0
    for query in queries:
        relevant = set(query["relevant"])
        found = rank(query["query"])[:CUTOFF]
        r1 += len(relevant & set(found[:1])) / len(relevant)
        r5 += len(relevant & set(found)) / len(relevant)
        dcg = sum(1 / math.log2(i + 2) for i, tool in enumerate(found) if tool in relevant)
        ideal = sum(1 / math.log2(i + 2) for i in range(min(CUTOFF, len(relevant))))
        ndcg += dcg / ideal
    return [f"{100 * v / len(queries):.1f}" for v in (r1, r5, ndcg)]


def calibration(index: SearchIndex, queries: list[dict]) -> list[str]:
    """For the top five hits: how often a hit was right, by confidence band, and the Brier score."""
    bands: list[list[int]] = [[0, 0] for _ in range(5)]
    brier = 0.0
    count = 0
    for query in queries:
        for hit in index.search(query["query"], limit=CUTOFF):
            right = hit.tool_name in query["relevant"]
            band = bands[min(4, int(hit.confidence * 5))]
            band[0] += right
            band[1] += 1
            brier += (hit.confidence - right) ** 2
            count += 1
    cells = [f"{100 * r / n:.0f}% of {n}" if n else "-" for r, n in bands]
    return [*cells, f"{brier / max(1, count):.3f}"]


def quality_rows(with_semantic: bool) -> tuple[list[list[object]], list[list[object]]]:
    records, queries = dev_split()
    baseline = BM25Baseline(records)
    rows = [["BM25 baseline (name + description)", *quality(lambda q: [r.tool_name for r in baseline.search(q, CUTOFF)], queries)]]
    default = SearchIndex.build(records)
    rows.append(["opgate default (pure Python)", *quality(lambda q: [h.tool_name for h in default.search(q, limit=CUTOFF)], queries)])
    calibrations = [["opgate default", *calibration(default, queries)]]
    if not with_semantic:
        return rows, calibrations
    if not semantic_available():
        rows.append(["semantic: extra not installed", "-", "-", "-"])
        return rows, calibrations
    hybrid = SearchIndex.build(records, semantic=True)

    def embeddings_alone(query: str) -> list[str]:
        scores = hybrid.semantic.match(query).scores
        return [hybrid.records[d].tool_name for d in sorted(scores, key=scores.__getitem__, reverse=True)[:CUTOFF]]

    rows.append(["all-MiniLM-L6-v2 embeddings alone", *quality(embeddings_alone, queries)])
    rows.append(["opgate semantic (hybrid)", *quality(lambda q: [h.tool_name for h in hybrid.search(q, limit=CUTOFF)], queries)])
    calibrations.append(["opgate semantic", *calibration(hybrid, queries)])
    return rows, calibrations


def twilio_rows(index: SearchIndex) -> list[list[object]]:
    """How often a hand-labelled right op is first, or in the top three."""
    labelled = [(q, {f"twilio.{op}" for op in ops}) for q, ops in TWILIO_QUERIES if ops]
    first = top3 = 0
    for query, right in labelled:
        found = [h.op for h in index.search(query, limit=3)]
        first += bool(found) and found[0] in right
        top3 += bool(right & set(found))
    return [[f"hand-labelled queries ({len(labelled)})", f"{first}", f"{top3}"]]


def speed_rows(index: SearchIndex, registry: object) -> list[list[object]]:
    builds = measure(lambda: SearchIndex.build(registry), repeat=5, warmup=0)
    latencies: list[float] = []
    for query, _ in TWILIO_QUERIES:
        latencies += measure(lambda: index.search(query), repeat=20)
    node_latencies: list[float] = []
    for query, _ in TWILIO_QUERIES:
        node_latencies += measure(lambda: index.search_nodes(query), repeat=5)
    return [
        ["index build, again (ms)", f"{median(builds):.0f}", f"{p95(builds):.0f}"],
        [f"search, {len(TWILIO_QUERIES)} queries x 20 (ms)", f"{median(latencies):.2f}", f"{p95(latencies):.2f}"],
        [f"search_nodes, {len(TWILIO_QUERIES)} queries x 5 (ms)", f"{median(node_latencies):.2f}", f"{p95(node_latencies):.2f}"],
    ]


def main() -> None:
    with_semantic = "--no-semantic" not in sys.argv
    rows, calibrations = quality_rows(with_semantic)
    print_table(f"MetaTool dev split ({DEV_SPLIT.name}): 199 tools, 2,000 queries", ["ranker", "R@1", "R@5", "NDCG@5"], rows)
    bands = ["conf <0.2", "0.2-0.4", "0.4-0.6", "0.6-0.8", ">=0.8"]
    print_table("Confidence of the top five hits: share right, by band", ["ranker", *bands, "Brier"], calibrations)
    registry = build_registry(load_catalog(TWILIO))
    start = time.perf_counter()
    index = SearchIndex.build(registry)
    first_build = (time.perf_counter() - start) * 1000
    print_table("Twilio (1,447 ops): default search", ["queries", "right op first", "in top 3"], twilio_rows(index))
    speed = [["index build, first in process (ms)", f"{first_build:.0f}", "-"], *speed_rows(index, registry)]
    print_table("Twilio (1,447 ops), one thread", ["measure", "median", "p95"], speed)

if __name__ == "__main__":
    main()
