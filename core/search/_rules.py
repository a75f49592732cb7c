"""Rules applied to a ranking after scoring: the verb's action, safety, state changes.

The verb: an op whose action is what the request's verb asks for ("link it
to the goal": the op whose action is link, not the goal's ops) gets a lift.

Safety: a destructive op (``destructive`` in its metadata, or an action that
removes or rearranges: delete, unlink, reorganize...) is never first for a
request that does not ask to remove something, and counts for half its score
further down. Naming the op's own action ("reorganize the project") counts
as asking for it.

State changes: "mark the task done", "reopen it", "I'm stuck on X" put the
entity's update op first, with the state it asked for as a suggested argument
(``{"state_key": "done"}``), read from the op's own state field (its enum), so
the vocabulary is the catalogue's and never invented.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..registry._record import OpRecord
from ._intent import Intent

DESTRUCTIVE_ACTIONS = frozenset({"delete", "remove", "unlink", "reorganize", "destroy", "purge", "erase", "drop", "revoke"})
UPDATE_ACTIONS = frozenset({"update", "patch", "edit", "set", "modify"})
# Below the op it demotes, but still a pointer: "delete" may be the op after all.
DESTRUCTIVE_SHARE = 0.5
# How much an op whose action the request's verb names is lifted.
ACTION_LIFT = 1.5
STRUCTURED_SHARE = 0.5


def is_destructive(record: OpRecord) -> bool:
    return bool(record.metadata.destructive) or (record.action or "") in DESTRUCTIVE_ACTIONS


def state_field(record: OpRecord, names: tuple[str, ...]) -> tuple[str, tuple[str, ...]] | None:
    """The state field of an update op and the values it allows, or None."""
    if (record.action or "") not in UPDATE_ACTIONS or record.kind != "write" or is_destructive(record):
        return None
    properties = record.parameters.get("properties") if isinstance(record.parameters, dict) else None
    if not isinstance(properties, dict):
        return None
    for name in names:
        schema = properties.get(name)
        if isinstance(schema, dict) and isinstance(schema.get("enum"), list):
            return name, tuple(str(v) for v in schema["enum"])
    return None


class Rules:
    """The rules over one list of records (see the module docstring)."""

    def __init__(self, records: list[OpRecord], state_fields: tuple[str, ...], action_terms: Callable[[str], set[str]]):
        self.records = records
        self.destructive = {i for i, r in enumerate(records) if is_destructive(r)}
        self.states = {i: found for i, r in enumerate(records) if (found := state_field(r, state_fields))}
        action_terms_of = {i: found for i, r in enumerate(records) if r.action and (found := action_terms(r.action))}
        # A catalogue whose op names say their action (entity.action) gets the
        # verb lift; in one where a few names happen to end in a verb
        # ("agency.find" among plugin names), a lift would only pick those few.
        self._structured = len(action_terms_of) >= STRUCTURED_SHARE * len(records)
        self._action_terms = action_terms_of

    def apply(self, intent: Intent, query_terms: set[str], scores: dict[int, float], keep: Callable[[int], bool]) -> tuple[dict[int, float], dict[int, dict[str, Any]], int | None]:
        """Adjusted scores, suggested arguments by op, and the op that must come first (if any)."""
        if self._structured:
            scores = {d: s * ACTION_LIFT if self._action_terms.get(d, set()) & query_terms else s for d, s in scores.items()}
        else:
            scores = dict(scores)
        allowed = set()
        if not intent.asks_removal:
            for doc_id in self.destructive:
                if doc_id in scores and not (self._action_terms.get(doc_id, set()) & query_terms):
                    scores[doc_id] *= DESTRUCTIVE_SHARE
                else:
                    allowed.add(doc_id)
        suggested: dict[int, dict[str, Any]] = {}
        first = None
        if intent.state:
            target = self._state_target(intent, scores, keep)
            if target is not None:
                doc_id, field, value = target
                suggested[doc_id] = {field: value}
                scores[doc_id] = max(scores.values(), default=1.0) or 1.0
                first = doc_id
        if first is None and not intent.asks_removal:
            first = self._best_safe(scores, keep, allowed)
        return scores, suggested, first

    def _state_target(self, intent: Intent, scores: dict[int, float], keep: Callable[[int], bool]) -> tuple[int, str, str] | None:
        best: tuple[tuple[float, ...], int, str, str] | None = None
        for doc_id, (field, allowed) in self.states.items():
            value = next((v for v in intent.state if v in allowed), None)
            if value is None or not keep(doc_id):
                continue
            named = self.records[doc_id].entity in intent.entities
            score = scores.get(doc_id, 0.0)
            if not named and score <= 0.0:
                continue
            key = (float(named), -float(intent.state.index(value)), score)
            if best is None or key > best[0]:
                best = (key, doc_id, field, value)
        return None if best is None else best[1:]

    def _best_safe(self, scores: dict[int, float], keep: Callable[[int], bool], allowed: set[int]) -> int | None:
        """The best op that may come first, when the best of all is a destructive one that may not."""
        ranked = sorted(scores, key=lambda d: (-scores[d], d))
        top = next((d for d in ranked if keep(d)), None)
        if top is None or top not in self.destructive or top in allowed:
            return None
        return next((d for d in ranked if keep(d) and (d not in self.destructive or d in allowed)), None)
