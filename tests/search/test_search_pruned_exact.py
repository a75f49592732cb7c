"""The pruned top of a ranking (core/search/_top.py) is exactly the full ranking's start.

Large catalogues find their first ops by score bounds instead of scoring every
matching op, or, where numpy is installed, from every posting added in C
(core/search/_dense.py). Here each of those ways and the full ranking run on
the same index (the pruning switched on for small catalogues too) and must
give the same hits, with the same confidences, for every built-in request and
a few hundred Twilio requests, with filters, pages past the pruned prefix,
groups and several-op requests.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from opgate.core import Gateway, build_registry
from opgate.core.catalog import load_catalog
from opgate.core.search import SearchIndex
from opgate.core.search import _blocks, _dense, _pruned, _top

REPO = Path(__file__).resolve().parents[2]
REQUESTS = REPO / "bench" / "data" / "builtin_requests.json"
TWILIO = REPO.parent / "shared" / "data" / "catalogs" / "twilio_openapi_tools.json"
TWILIO_REQUESTS = [
    "send an sms", "list phone numbers", "buy a phone number", "release a phone number", "mute a participant in a conference",
    "fetch call recording", "make an outbound call", "hang up a call", "create a video room", "add a participant to a conversation",
    "send a verification code", "look up a phone number", "create a messaging service", "fetch account balance", "rotate auth token",
    "create a task in taskrouter", "update worker activity", "create a sync document", "transcribe a recording", "create a sip trunk",
    "recieve faxes", "remove every queue member", "delete a conference participant", "create a call and then fetch its recording",
    "plorb", "x", "update the webhook url of a service", "verify a user with a code", "list recordings of a call",
]


def _requests() -> list[str]:
    data = json.loads(REQUESTS.read_text(encoding="utf-8"))
    return [r["query"] for part in ("tune", "heldback") for r in data[part]]


def _both(index: SearchIndex, search):
    index.prune_from_ops = 10**9
    full = search()
    index.prune_from_ops = 0
    return full, search()


class _Counting:
    """Counts how often the pruned path answers (and from dense sums), so that a test cannot pass by always walking everything."""

    def __init__(self, monkeypatch):
        self.answered = 0
        self.asked = 0
        self.dense = 0
        self.blocks = 0
        real = _top.best_prefix
        real_dense = _top.dense_prefix
        real_fused_order = _top.fused_order

        def counted(*args, **kwargs):
            self.asked += 1
            found = real(*args, **kwargs)
            self.answered += found is not None
            return found

        def counted_dense(*args, **kwargs):
            self.dense += 1
            return real_dense(*args, **kwargs)

        def counted_blocks(*args, **kwargs):
            self.blocks += 1
            return real_fused_order(*args, **kwargs)

        monkeypatch.setattr("opgate.core.search._index.best_prefix", counted)
        monkeypatch.setattr(_top, "dense_prefix", counted_dense)
        monkeypatch.setattr(_top, "fused_order", counted_blocks)


# How the pruned top is found: dense sums in numpy; block bounds (numpy left unused); block bounds because numpy is missing.
WAYS = ["dense", "blocks", "no numpy"]


def _choose(index: SearchIndex, way: str, monkeypatch) -> None:
    index.dense_sums = way != "blocks"
    if way == "no numpy":
        monkeypatch.setattr("opgate.core.search._index.numpy_module", lambda: None)
    index.lexical._heads.clear()
    index.lexical._tops.clear()


def _check_way(counting: _Counting, way: str) -> None:
    """The way chosen answered (repeated requests answer from the head they remembered, by either way)."""
    if way == "dense":
        assert counting.dense > 0 and counting.blocks == 0
    else:
        assert counting.blocks > 0 and counting.dense == 0


def _assert_same(index: SearchIndex, queries: list[str], groups: list[str]) -> None:
    for query in queries:
        for limit, offset in ((10, 0), (1, 0), (5, 5), (11, 0), (3, 40)):
            full, pruned = _both(index, lambda: index.search(query, limit=limit, offset=offset))
            assert pruned == full, (query, limit, offset)
        for kind in ("read", "write"):
            full, pruned = _both(index, lambda: index.search(query, kind=kind))
            assert pruned == full, (query, kind)
        for group in groups:
            full, pruned = _both(index, lambda: index.search(query, path=group))
            assert pruned == full, (query, group)
        full, pruned = _both(index, lambda: index.search(query, visible=lambda r: len(r.op) % 3 != 0))
        assert pruned == full, query
        full, pruned = _both(index, lambda: index.search_nodes(query))
        assert pruned == full, query


@pytest.mark.parametrize("way", WAYS)
def test_builtin_requests_rank_exactly_as_the_full_walk(monkeypatch, way):
    counting = _Counting(monkeypatch)
    index = Gateway(call_log=False).search_index
    _choose(index, way, monkeypatch)
    _assert_same(index, _requests(), ["onto.task", "onto.document"])
    # A catalogue of 100 ops often has too few strong matches for the bounds to say anything,
    # but the pruned path must still answer a few hundred of these searches.
    assert counting.answered > 200
    _check_way(counting, way)


@pytest.fixture(scope="module")
def twilio_twice(tmp_path_factory) -> SearchIndex:
    if not TWILIO.exists():
        pytest.fail(f"shared test data is missing: {TWILIO}")
    data = json.loads(TWILIO.read_text(encoding="utf-8"))
    tools = list(data["tools"])
    for tool in data["tools"]:
        product, _, operation = tool["op"].partition(".")
        tools.append({**tool, "name": f"{tool['name']}_r1", "op": f"{product}_r1.{operation}"})
    path = tmp_path_factory.mktemp("twilio") / "twilio_x2.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return SearchIndex.build(build_registry(load_catalog(path)))


@pytest.mark.parametrize("way", WAYS)
def test_a_generated_catalogue_ranks_exactly_as_the_full_walk(twilio_twice, monkeypatch, way):
    counting = _Counting(monkeypatch)
    _choose(twilio_twice, way, monkeypatch)
    groups = sorted({r.op.split(".")[0] for r in twilio_twice.records})[:2]
    _assert_same(twilio_twice, TWILIO_REQUESTS + _requests()[::4], groups)
    assert counting.answered > 0.4 * counting.asked
    _check_way(counting, way)


def _random_requests(index: SearchIndex, count: int, seed: int) -> list[str]:
    """Requests made of catalogue words: short ones, ones with a typo, and long multi-sentence ones padded with everyday words."""
    rng = random.Random(seed)
    vocabulary = sorted({w for r in index.records for w in r.summary.lower().split() if w.isalpha() and len(w) > 2})
    filler = ["please", "i", "need", "to", "help", "me", "find", "the", "way", "that", "we", "can", "also", "then", "for", "our", "team", "today", "quickly"]

    def typo(word: str) -> str:
        at = rng.randrange(len(word))
        return rng.choice((word[:at] + word[at + 1 :], word[:at] + rng.choice("aeiourst") + word[at + 1 :], word[:at] + word[at:][::-1][:1] + word[at + 1 :]))

    requests = []
    for number in range(count):
        kind = number % 3
        words = rng.sample(vocabulary, rng.randint(2, 4) if kind < 2 else rng.randint(8, 16))
        if kind == 1:
            words[rng.randrange(len(words))] = typo(rng.choice(words))
        if kind == 2:
            words += rng.sample(filler, 6)
            rng.shuffle(words)
        requests.append(" ".join(words))
    return requests


@pytest.mark.parametrize(("chunk", "block_share"), [(_blocks.CHUNK, _pruned.BLOCK_SHARE), (1, 1.0), (32, 0.05)])
def test_random_requests_rank_exactly_as_the_full_walk(twilio_twice, monkeypatch, chunk, block_share):
    """Seeded random requests (typos and long requests included), blocks scored one or many at a time, the top found by blocks or by a walk."""
    monkeypatch.setattr(_blocks, "CHUNK", chunk)
    monkeypatch.setattr(_pruned, "BLOCK_SHARE", block_share)
    monkeypatch.setattr(_top, "CHUNK", chunk)
    _choose(twilio_twice, "blocks", monkeypatch)
    counting = _Counting(monkeypatch)
    stopped_early = []
    real_fused_order = _top.fused_order

    def fused_order(*args):
        bounds, order = real_fused_order(*args)
        stopped_early.append(order)
        return bounds, order

    monkeypatch.setattr(_top, "fused_order", fused_order)
    for query in _random_requests(twilio_twice, 90, seed=chunk):
        for limit, offset in ((10, 0), (5, 5)):
            full, pruned = _both(twilio_twice, lambda: twilio_twice.search(query, limit=limit, offset=offset))
            assert pruned == full, (query, limit, offset)
        full, pruned = _both(twilio_twice, lambda: twilio_twice.search(query, kind="write"))
        assert pruned == full, (query, "write")
    assert counting.answered > 0.3 * counting.asked
    assert stopped_early


@pytest.mark.parametrize("way", ["dense", "blocks"])
def test_new_words_and_typos_rank_exactly_at_100_blocks(monkeypatch, tmp_path, way):
    """A catalogue of 6,400 generated ops (100 blocks): made-up words, typos of them and words no op has, both ways, hit for hit."""
    index = _generated_index(6400, seed=7, folder=tmp_path)
    _choose(index, way, monkeypatch)
    counting = _Counting(monkeypatch)
    for query in _generated_queries(index, 60, seed=11):
        for limit, offset in ((10, 0), (5, 5), (1, 0)):
            full, pruned = _both(index, lambda: index.search(query, limit=limit, offset=offset))
            assert pruned == full, (query, limit, offset)
        full, pruned = _both(index, lambda: index.search(query, kind="read"))
        assert pruned == full, (query, "read")
    assert counting.answered > 0.3 * counting.asked
    _check_way(counting, way)


@pytest.mark.parametrize("stage", ["divisors", "final", "floors"])
def test_a_bound_that_misses_an_op_changes_the_ranking(monkeypatch, tmp_path, stage):
    """The identity tests can fail: with block bounds halved (no longer covering their ops), some ranking differs from the full walk.

    ``divisors``: the bounds of each lane's block walk (the best word and
    gram scores); ``final``: the bounds on the final score (step 2);
    ``floors``: step 2's word floor per block doubled (ops that could
    reach the threshold dropped before they are scored).
    """
    index = _generated_index(6400, seed=7, folder=tmp_path)
    _choose(index, "blocks", monkeypatch)
    if stage == "floors":
        monkeypatch.setattr(_top, "FLOOR_SLACK", -1.0)
    elif stage == "divisors":
        real_init = _blocks.BlockWalk.__init__

        def halved(self, *args, **kwargs):
            real_init(self, *args, **kwargs)
            self.bounds = [bound * 0.5 for bound in self.bounds]

        monkeypatch.setattr(_blocks.BlockWalk, "__init__", halved)
    else:
        real_order = _top.fused_order

        def halved_order(*args):
            bounds, order = real_order(*args)
            return [bound * 0.5 for bound in bounds], order

        monkeypatch.setattr(_top, "fused_order", halved_order)
    differing = 0
    for query in _generated_queries(index, 60, seed=11):
        full, pruned = _both(index, lambda q=query: index.search(q, limit=10))
        differing += pruned != full
    assert differing > 0


@pytest.mark.parametrize("fault", ["a list left out", "no gram part"])
def test_dense_sums_that_miss_a_part_change_the_ranking(monkeypatch, tmp_path, fault):
    """The identity tests can fail on the dense path too: with one list of each lane left out of the sums, or the gram lane's share left out, some ranking differs."""
    index = _generated_index(6400, seed=7, folder=tmp_path)
    _choose(index, "dense", monkeypatch)
    if fault == "a list left out":
        real_sums = _dense._sums
        monkeypatch.setattr(_dense, "_sums", lambda np, lists, size: real_sums(np, lists[:-1] or lists, size))
    else:
        monkeypatch.setattr(_dense, "NGRAM_SHARE", 0.0)
    differing = 0
    for query in _generated_queries(index, 60, seed=11):
        full, pruned = _both(index, lambda q=query: index.search(q, limit=10))
        differing += pruned != full
    assert differing > 0


def _generated_queries(index: SearchIndex, count: int, seed: int) -> list[str]:
    """Words of the generated catalogue, a third with a typo of one, a third with a word no op has."""
    rng = random.Random(seed)
    vocabulary = sorted({w for r in index.records for w in r.summary.split()})
    queries = []
    for number in range(count):
        words = rng.sample(vocabulary, rng.randint(1, 4))
        if number % 3 == 1:
            word = rng.choice(words)
            at = rng.randrange(len(word))
            words[words.index(word)] = word[:at] + rng.choice("aeiou") + word[at + 1 :]
        if number % 3 == 2:
            words.append("".join(rng.choice("bcdfghklmnprstvz") for _ in range(6)))
        queries.append(" ".join(words))
    return queries


def _generated_index(size: int, seed: int, folder: Path) -> SearchIndex:
    """Ops named and described with words made of a few hundred syllables: many ops share each word, as in a large catalogue."""
    rng = random.Random(seed)
    syllables = [a + b for a in "bdfgklmnprstvz" for b in ("a", "e", "i", "o", "u", "ar", "en")]
    words = sorted({"".join(rng.sample(syllables, rng.randint(2, 3))) for _ in range(900)})
    verbs = ["create", "list", "get", "update", "delete", "send", "fetch"]
    tools = []
    for number in range(size):
        topic = rng.sample(words, rng.randint(2, 4))
        verb = rng.choice(verbs)
        name = verb.capitalize() + "".join(w.capitalize() for w in topic[:2]) + str(number)
        tools.append({
            "name": name,
            "op": f"g{number % 37}.{name}",
            "description": f"{verb.capitalize()} {' '.join(topic)}. " + " ".join(rng.sample(words, rng.randint(3, 12))),
            "parameters": {"type": "object", "properties": {}, "required": []},
        })
    path = folder / "generated.json"
    path.write_text(json.dumps({"tools": tools}), encoding="utf-8")
    return SearchIndex.build(build_registry(load_catalog(path)))
