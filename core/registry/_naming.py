"""Turning tool names into stable, semantic ops.

The order of precedence: an op the source assigns, the exact special cases,
the ontology patterns, then a general split of the name into entity and
action by its verb (``list_issues`` under ``mcp.github`` becomes
``mcp.github.issue.list``; Twilio's ``accounts_v1.CreateBulkConsents`` becomes
``twilio.accounts_v1.bulk_consent.create``). A name with no verb keeps its own
words as one leaf under its namespace. Nothing here can fail: every name gets a
place.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

from .._record import record
from ..catalog._tool import ToolDefinition
from ._scripts import spelled_in_ascii

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_WORD = re.compile(r"[^A-Za-z0-9]+")
_SEGMENT = re.compile(r"^[a-z0-9_]+$")


@record(frozen=True)
class NamingRules:
    exact: dict[str, str]
    patterns: tuple[tuple[re.Pattern[str], str], ...]
    read_verbs: frozenset[str]
    write_verbs: frozenset[str]
    destructive_verbs: frozenset[str]
    group_summaries: dict[str, str]

    @classmethod
    def from_mapping(cls, data: dict[str, Any]) -> NamingRules:
        return cls(
            exact=dict(data.get("exact", {})),
            patterns=tuple((re.compile(p["match"]), p["op"]) for p in data.get("patterns", [])),
            read_verbs=frozenset(data.get("read_verbs", [])),
            write_verbs=frozenset(data.get("write_verbs", [])),
            destructive_verbs=frozenset(data.get("destructive_verbs", [])),
            group_summaries=dict(data.get("group_summaries", {})),
        )

    @property
    def verbs(self) -> frozenset[str]:
        return self.read_verbs | self.write_verbs


@lru_cache(maxsize=1)
def default_rules() -> NamingRules:
    # Beside this module, as package data; importlib.resources would cost a command line ~10 ms to find it.
    text = Path(__file__).with_name("naming.json").read_text(encoding="utf-8")
    return NamingRules.from_mapping(json.loads(text))


@record(frozen=True)
class OpName:
    op: str
    entity: str | None
    action: str | None


_LATIN_SPELLED = str.maketrans({
    "ß": "ss", "ẞ": "SS", "æ": "ae", "Æ": "Ae", "œ": "oe", "Œ": "Oe", "ø": "o", "Ø": "O", "ł": "l", "Ł": "L",
    "đ": "d", "Đ": "D", "ð": "d", "Ð": "D", "þ": "th", "Þ": "Th", "ħ": "h", "Ħ": "H", "ı": "i", "ŀ": "l", "Ŀ": "L",
})


def words_of(name: str) -> list[str]:
    """``CreateBulkConsents``, ``create_bulk-consents`` and ``create.bulk consents`` all give the same words."""
    # Accents fold to ASCII ("Ünïcode" -> "Unicode") so that ops stay plain dotted words. Latin letters
    # that do not decompose are spelled out first: dropped, "Straße" would name a "strae". Other scripts
    # are transliterated or spelled by code point (_scripts): dropped, every Chinese name was "_".
    ascii_name = name.translate(_LATIN_SPELLED)
    if not ascii_name.isascii():
        ascii_name = spelled_in_ascii(ascii_name)
    spaced = _CAMEL_BOUNDARY.sub(" ", ascii_name)
    return [w.lower() for w in _NON_WORD.split(spaced) if w]


# Plurals the suffix rules below get wrong ("shelves" -> "shelve", "statuses" -> "statuse"). Whole words only:
# as a suffix "lives" would make "olives" an "olife". Adding one renames the ops of catalogues that use it.
_IRREGULAR_PLURALS = {
    "aliases": "alias", "analyses": "analysis", "appendices": "appendix", "bonuses": "bonus", "buses": "bus",
    "calves": "calf", "campuses": "campus", "children": "child", "crises": "crisis", "criteria": "criterion",
    "diagnoses": "diagnosis", "halves": "half", "hypotheses": "hypothesis", "indices": "index", "knives": "knife",
    "leaves": "leaf", "lives": "life", "loaves": "loaf", "matrices": "matrix", "men": "man", "mice": "mouse",
    "people": "person", "quizzes": "quiz", "scarves": "scarf", "selves": "self", "shelves": "shelf",
    "statuses": "status", "theses": "thesis", "thieves": "thief", "vertices": "vertex", "viruses": "virus",
    "wives": "wife", "wolves": "wolf", "women": "woman",
}


def singular(word: str) -> str:
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if len(word) <= 3 or word.endswith(("ss", "us", "is", "ics", "news", "data")):
        return word
    if word.endswith("ies"):
        return word[:-3] + "y"
    if word.endswith(("ches", "shes", "xes", "sses", "zzes")):
        return word[:-2]
    if word.endswith("s"):
        return word[:-1]
    return word


def _segment(text: str) -> str:
    segment = "_".join(words_of(text))
    return segment if segment else "_"


def split_entity_action(words: list[str], rules: NamingRules) -> tuple[str | None, str | None]:
    """``[create, or, update, file]`` gives ``(file, create_or_update)``; no verb gives ``(None, None)``."""
    verbs = rules.verbs
    if not words:
        return None, None
    if len(words) >= 3 and words[0] in verbs and words[1] == "or" and words[2] in verbs:
        action, rest = "_".join(words[:3]), words[3:]
    elif words[0] in verbs:
        action, rest = words[0], words[1:]
    elif len(words) > 1 and words[-1] in verbs:
        action, rest = words[-1], words[:-1]
    else:
        return None, None
    if not rest:
        return None, action
    rest = [*rest[:-1], singular(rest[-1])]
    return "_".join(rest), action


def _join(*parts: str | None) -> str:
    return ".".join(p for p in parts if p)


def _from_exact(op: str) -> OpName:
    parts = op.split(".")
    return OpName(op, parts[1] if len(parts) > 2 else None, parts[-1] if len(parts) > 1 else None)


def name_tool(tool: ToolDefinition, rules: NamingRules | None = None) -> OpName:
    """The op for one tool. Pure: the same tool always gets the same name."""
    rules = rules or default_rules()
    if tool.op and all(_SEGMENT.match(s) for s in tool.op.split(".")):
        return _from_exact(tool.op)
    # The special cases and patterns describe the built-in catalogue, whose
    # namespace is empty; another catalogue's ``web_search`` stays its own.
    if not tool.namespace and tool.name in rules.exact:
        return _from_exact(rules.exact[tool.name])
    for pattern, template in rules.patterns if not tool.namespace else ():
        match = pattern.match(tool.name)
        if match:
            groups = match.groupdict()
            entity = groups.get("entity") or singular(groups.get("plural", ""))
            op = template.format(entity=entity, action=groups.get("action", ""))
            return OpName(op, entity, op.rsplit(".", 1)[-1])
    prefix = [_segment(p) for p in tool.op_hint.split(".")[:-1]] if tool.op_hint else []
    namespace = tool.namespace or "ext"
    words = words_of(tool.op_hint.split(".")[-1] if tool.op_hint else tool.name)
    entity, action = split_entity_action(words, rules)
    if action is None:
        return OpName(_join(namespace, *prefix, "_".join(words) or "_"), None, None)
    return OpName(_join(namespace, *prefix, entity, action), entity, action)


def kind_of(tool: ToolDefinition, action: str | None, rules: NamingRules | None = None) -> str:
    """``read`` or ``write``. Declared side effects win; an unknown verb counts as a write, the safe side."""
    rules = rules or default_rules()
    side_effects = tool.metadata.side_effects
    if side_effects in ("none", "read_only"):
        return "read"
    if side_effects == "writes":
        return "write"
    first = (action or "").split("_")[0]
    if first in rules.read_verbs:
        return "read"
    return "write"


def is_destructive(tool: ToolDefinition, action: str | None, rules: NamingRules | None = None) -> bool:
    rules = rules or default_rules()
    if tool.metadata.destructive is not None:
        return tool.metadata.destructive
    return any(part in rules.destructive_verbs for part in (action or "").split("_"))
