"""Ranking groups of the namespace by how well their ops match a query.

Summing op scores per group would always crown the root (it holds every op);
taking the best op would tie a group with all of its ancestors. A group is
instead scored like a retrieved set: ``recall`` is its share of the
relevance of all matching ops, ``precision`` the mean relevance over all its
ops, and the score is their geometric mean. The root has full recall and
little precision, a small group the reverse; the group that holds the matches
and little else wins (``onto.document`` for "documents").

Left out: a group of one op (it is that op, which :meth:`SearchIndex.search`
finds) and a group that holds every visible op (``twilio`` when only Twilio is
loaded), which says nothing.
"""

from __future__ import annotations

import math

from ..registry._record import OpRecord
from ._hits import NodeHit

# How many matching ops a fallback summary names.
_NAMED_IN_SUMMARY = 3


def groups_of(op: str) -> list[str]:
    """The groups an op sits in: ``onto.document.tree.move`` -> onto, onto.document, onto.document.tree."""
    parts = op.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts))]


def rank_groups(matched: list[tuple[OpRecord, float, float]], sizes: dict[str, int], summaries: dict[str, str], limit: int) -> list[NodeHit]:
    """Groups best first. ``matched`` holds (op, confidence, relevance) best first; ``sizes`` counts each group's visible ops."""
    everything = max(sizes.values(), default=0)
    mass: dict[str, float] = {}
    best: dict[str, float] = {}
    members: dict[str, list[str]] = {}
    for record, confidence, relevance in matched:
        for group in groups_of(record.op):
            if 1 < sizes.get(group, 0) < everything:
                mass[group] = mass.get(group, 0.0) + relevance
                best[group] = max(best.get(group, 0.0), confidence)
                members.setdefault(group, []).append(record.op)
    total = sum(relevance for _, _, relevance in matched) or 1.0
    scores = {group: math.sqrt((group_mass / total) * (group_mass / sizes[group])) for group, group_mass in mass.items()}
    ordered = sorted(scores, key=lambda g: (-scores[g], g))[:limit]
    if not ordered:
        return []
    top = scores[ordered[0]] or 1.0
    hits: list[NodeHit] = []
    ceiling = 1.0
    for group in ordered:
        confidence = min(ceiling, best[group] * scores[group] / top)
        ceiling = confidence
        summary = summaries.get(group) or _fallback_summary(sizes[group], members[group])
        hits.append(NodeHit(group, summary, sizes[group], round(confidence, 3)))
    return hits


def _fallback_summary(size: int, matching_ops: list[str]) -> str:
    named = ", ".join(matching_ops[:_NAMED_IN_SUMMARY])
    return f"{size} ops; best matches: {named}"
