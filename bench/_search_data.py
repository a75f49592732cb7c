"""The labelled query sets the search bench measures, each as a gateway and its queries.

Every set answers the same shape: a :class:`QuerySet` with a gateway over its
tools and queries whose ``relevant`` is a list of slots, each slot a set of
acceptable ops or tool names (``"a|b"``: either answers that part of the request). MetaTool
and ToolLens have one op per slot. The MetaTool held-out split and ToolLens
are for evaluation only: nothing here prints or returns their query text to
anything but the metric loop.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

from opgate.core import Gateway, build_registry
from opgate.core.catalog import CatalogLoad, ToolDefinition

HERE = Path(__file__).resolve().parent
SHARED = HERE.parents[1] / "shared" / "data"
OWN = HERE / "data" / "builtin_requests.json"
STORIES = HERE / "data" / "metatool_dev_stories.json"
SITUATIONS = HERE / "data" / "metatool_dev_situations.json"
NEIGHBOURS = HERE / "data" / "metatool_dev_neighbours.json"
SCENES = HERE / "data" / "metatool_dev_scenes.json"
OWN_MULTI = HERE / "data" / "builtin_multi_requests.json"
DEV_MULTI = HERE / "data" / "metatool_dev_multi.json"
METATOOL_DEV = SHARED / "search" / "metatool_dev.json"
METATOOL_HELDOUT = SHARED / "search" / "metatool_heldout.json"
TOOLLENS = SHARED / "search" / "toollens_test.json"
TWILIO = SHARED / "catalogs" / "twilio_openapi_tools.json"
_EMPTY = {"type": "object", "properties": {}}


@dataclass
class Query:
    text: str
    slots: list[frozenset[str]]
    style: str = ""


@dataclass
class QuerySet:
    name: str
    queries: list[Query]
    tools: list[ToolDefinition] | None  # None: the built-in catalogue
    namespace: str = "bench"

    def gateway(self, search: str = "default") -> Gateway:
        if self.tools is None:
            return Gateway(search=search, call_log=False)
        registry = build_registry([CatalogLoad(self.name, self.namespace, self.tools)])
        return Gateway(registry, search=search, call_log=False)



def _parts(path: Path) -> dict[str, list[Query]]:
    """The tuning part and the held-back part of one of our labelled sets."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return {part: [Query(e["query"], [frozenset(slot.split("|")) for slot in e["relevant"]], e["style"]) for e in data[part]] for part in ("tune", "heldback")}


def own_sets() -> list[QuerySet]:
    return [QuerySet(f"built-in requests, {part}", queries, None) for part, queries in _parts(OWN).items()]


def own_multi_sets() -> list[QuerySet]:
    """Requests for several ops of the built-in catalogue at once (every op labelled): tuning and held-back parts."""
    return [QuerySet(f"built-in multi-op, {part}", queries, None) for part, queries in _parts(OWN_MULTI).items()]


def metatool_dev_multi() -> list[QuerySet]:
    """Requests for two or three of the dev split's tools at once, written from their descriptions: tuning and held-back parts."""
    dev = metatool_dev()
    return [QuerySet(f"MetaTool dev multi-tool, {part}", queries, dev.tools, dev.namespace) for part, queries in _parts(DEV_MULTI).items()]


def _metatool(path: Path, name: str) -> QuerySet:
    data = json.loads(path.read_text(encoding="utf-8"))
    tools = [ToolDefinition(name=t["name"], description=t["description"], parameters=_EMPTY, namespace="metatool", source=str(path)) for t in data["tools"]]
    queries = [Query(q["query"], [frozenset({r}) for r in q["relevant"]]) for q in data["queries"]]
    return QuerySet(name, queries, tools, "metatool")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_") or "tool"


def toollens() -> QuerySet:
    data = json.loads(TOOLLENS.read_text(encoding="utf-8"))
    names: dict[str, str] = {}
    tools = []
    for tool in data["tools"]:
        name = _slug(tool["name"])
        if name in names.values():
            name = f"{name}_{tool['id']}"
        names[tool["id"]] = name
        tools.append(ToolDefinition(name=name, description=tool["description"], parameters=_EMPTY, namespace="toollens", source=str(TOOLLENS)))
    queries = [Query(q["query"], [frozenset({names[r]}) for r in q["relevant"]]) for q in data["queries"]]
    return QuerySet("ToolLens test", queries, tools, "toollens")


def metatool_dev() -> QuerySet:
    return _metatool(METATOOL_DEV, "MetaTool dev")


def metatool_dev_stories() -> list[QuerySet]:
    """Long situational requests for the dev split's tools, written for this project: its tuning part and its held-back part.

    A tuning stand-in for ToolLens's style (which is for evaluation only):
    a situation described in everyday words, one to three tools needed,
    none named.
    """
    return _dev_story_sets(STORIES, "stories")


def metatool_dev_situations() -> list[QuerySet]:
    """A second such set (session 8), longer: a person's situation, then what they want (tuning and held-back parts)."""
    return _dev_story_sets(SITUATIONS, "situations")


def metatool_dev_neighbours() -> list[QuerySet]:
    """Situational requests for dev tools that have a near neighbour in the split (session 9): the request must tell the two apart (tuning and held-back parts)."""
    return _dev_story_sets(NEIGHBOURS, "neighbours")


def metatool_dev_scenes() -> list[QuerySet]:
    """A scene in a sentence or three, then the request, one to three tools (session 12, written after its choice, to check it): tuning and held-back parts."""
    return _dev_story_sets(SCENES, "scenes")


def _dev_story_sets(path: Path, label: str) -> list[QuerySet]:
    dev = metatool_dev()
    return [QuerySet(f"MetaTool dev, {label}, {part}", queries, dev.tools, dev.namespace) for part, queries in _parts(path).items()]


def metatool_heldout() -> QuerySet:
    return _metatool(METATOOL_HELDOUT, "MetaTool held-out")


# Scene-setting written for the long-request set: no benchmark text.
_OPENINGS = [
    "Hi there, I have a few things going on this week and I could really use some help with them.",
    "Okay, so here is my situation, and I hope you can point me in the right direction.",
    "I'm putting together plans for the next few days and I need a hand.",
    "Hello! My friend suggested I ask you, since I'm not sure where to start.",
]
_LINKS = ["Also, one more thing:", "On top of that,", "Besides that, I was wondering about this too.", "And then,"]
_CLOSINGS = ["Thanks a lot in advance, I really appreciate any help you can give me.", "Let me know what you think would work best.", "", "It would mean a lot to me."]


def metatool_dev_long(count: int = 600, seed: int = 7) -> QuerySet:
    """Long requests of several sentences, each one to three MetaTool dev queries wrapped in scene-setting.

    A tuning stand-in for long user stories (ToolLens's style, which is for
    evaluation only): made from the dev split alone, so tuning on it is allowed.
    """
    dev = metatool_dev()
    rng = random.Random(seed)
    singles = [q for q in dev.queries if len(q.slots) == 1]
    queries = []
    for _ in range(count):
        picks = rng.sample(singles, rng.choice([1, 1, 2, 2, 3]))
        if len({next(iter(p.slots[0])) for p in picks}) < len(picks):
            continue
        parts = [rng.choice(_OPENINGS), picks[0].text]
        for pick in picks[1:]:
            parts += [rng.choice(_LINKS), pick.text]
        parts.append(rng.choice(_CLOSINGS))
        queries.append(Query(" ".join(p for p in parts if p), [p.slots[0] for p in picks], f"{len(picks)} ops"))
    return QuerySet("MetaTool dev, long requests", queries, dev.tools, dev.namespace)
