"""Rules applied to a ranking after scoring: the verb's action, safety, state changes.

The verb: an op whose action is what the request's verb asks for ("link it
to the goal": the op whose action is link, not the goal's ops) gets a lift.
When the request names things (a task, a project), the verb lifts its ops on
those things, not on others ("create a new task": task.create, not
plan.create; built-in requests, tuning part, R@1 80.0 -> 81.5).

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

from collections.abc import Callable, Sequence
from itertools import compress
from typing import Any

from .._record import record
from ..registry._record import OpRecord
from ._intent import Intent

DESTRUCTIVE_ACTIONS = frozenset({"delete", "remove", "unlink", "reorganize", "destroy", "purge", "erase", "drop", "revoke"})
UPDATE_ACTIONS = frozenset({"update", "patch", "edit", "set", "modify"})
# Below the op it demotes, but still a pointer: "delete" may be the op after all.
DESTRUCTIVE_SHARE = 0.5
# How much an op whose action the request's verb names is lifted.
ACTION_LIFT = 1.5
STRUCTURED_SHARE = 0.5
# Lifted and demoted ops kept for this many sets of action words (each a set of op ids).
MAX_FACTORS = 256


def _scale(scores: dict[int, float], ops: frozenset[int], factor: float) -> None:
    """``scores[d] *= factor`` for each op of ``ops`` that is scored.

    The ops are found by walking whichever is smaller, ``ops`` or the scored
    ones, and the products are taken in C: the same one multiplication per op
    as ``*=``, and updating keys already there keeps the dict's order.
    """
    found = list(ops.intersection(scores) if len(ops) < len(scores) else compress(scores, map(ops.__contains__, scores)))
    scores.update(zip(found, map(factor.__mul__, map(scores.__getitem__, found))))


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


@record(frozen=True)
class Adjusted:
    """A ranking after the rules. ``first`` must lead (a state change); ``barred`` may not lead."""

    scores: dict[int, float]
    suggested: dict[int, dict[str, Any]]
    first: int | None
    barred: frozenset[int]


class Rules:
    """The rules over one list of records (see the module docstring)."""

    def __init__(self, records: Sequence[OpRecord], state_fields: tuple[str, ...], action_terms: Callable[[str], set[str]], entity_kinds: frozenset[str] = frozenset()):
        self.records = records
        self.destructive = {i for i, r in enumerate(records) if is_destructive(r)}
        self.states = {i: found for i, r in enumerate(records) if (found := state_field(r, state_fields))}
        action_terms_of = {i: found for i, r in enumerate(records) if r.action and (found := action_terms(r.action))}
        # A catalogue whose op names say their action (entity.action) gets the
        # verb lift; in one where a few names happen to end in a verb
        # ("agency.find" among plugin names), a lift would only pick those few.
        self._structured = len(action_terms_of) >= STRUCTURED_SHARE * len(records)
        self._by_action_term: dict[str, list[int]] = {}
        self._factors: dict[Any, tuple[frozenset[int], frozenset[int]]] = {}
        for doc_id, found in action_terms_of.items():
            for term in sorted(found):
                self._by_action_term.setdefault(term, []).append(doc_id)
        # The entity of each op that has an action, when the request vocabulary has words for that entity.
        self._entity_of = {doc_id: str(records[doc_id].entity) for doc_id in action_terms_of if records[doc_id].entity in entity_kinds}
        self._action_term_entities: dict[str, dict[str | None, list[int]]] = {}
        self._kept_per_set()

    def _kept_per_set(self) -> None:
        self._destructive = frozenset(self.destructive)
        self._term_sets: dict[str, frozenset[int]] = {}
        self._barred: dict[frozenset[int], frozenset[int]] = {}

    def pack(self) -> dict[str, Any]:
        return {
            "destructive": sorted(self.destructive),
            "states": [[doc_id, field, list(values)] for doc_id, (field, values) in self.states.items()],
            "structured": self._structured,
            "by_action_term": self._by_action_term,
            "entity_of": [[doc_id, entity] for doc_id, entity in sorted(self._entity_of.items())],
        }

    @classmethod
    def unpacked(cls, records: Sequence[OpRecord], data: dict[str, Any]) -> Rules:
        rules = cls.__new__(cls)
        rules.records = records
        rules.destructive = set(data["destructive"])
        rules.states = {int(doc_id): (str(field), tuple(values)) for doc_id, field, values in data["states"]}
        rules._structured = bool(data["structured"])
        rules._by_action_term = {str(term): [int(d) for d in docs] for term, docs in data["by_action_term"].items()}
        rules._entity_of = {int(doc_id): str(entity) for doc_id, entity in data["entity_of"]}
        rules._action_term_entities = {}
        rules._factors = {}
        rules._kept_per_set()
        return rules

    def apply(self, intent: Intent, query_terms: set[str], scores: dict[int, float], keep: Callable[[int], bool]) -> Adjusted:
        """Scores after the rules, suggested arguments by op, and which ops may lead."""
        scores = dict(scores)
        lifted, barred = self.factors(intent, query_terms)
        if lifted:
            _scale(scores, lifted, ACTION_LIFT)
        if barred:
            _scale(scores, barred, DESTRUCTIVE_SHARE)
        suggested: dict[int, dict[str, Any]] = {}
        first = None
        if intent.state:
            target = self._state_target(intent, scores, keep)
            if target is not None:
                doc_id, field, value = target
                suggested[doc_id] = {field: value}
                scores[doc_id] = max(scores.values(), default=1.0) or 1.0
                first = doc_id
        return Adjusted(scores, suggested, first, barred)

    def is_barred(self, record: OpRecord) -> bool:
        """Whether ``record`` may not lead a request that does not ask to remove something."""
        return is_destructive(record)

    def factors(self, intent: Intent, query_terms: set[str]) -> tuple[frozenset[int], frozenset[int]]:
        """The ops whose score is lifted (times ``ACTION_LIFT``) and those demoted (times ``DESTRUCTIVE_SHARE``), which also may not lead.

        No op is in both: naming an op's action is asking for it.
        """
        # Kept per set of action words and things named: "create" names tens of thousands of ops at scale.
        key = (tuple(sorted(t for t in query_terms if t in self._by_action_term)), intent.asks_removal, tuple(sorted(set(intent.entities))))
        found = self._factors.get(key)
        if found is None:
            parts: dict[int, frozenset[int]] = {}
            for term in key[0]:
                ops = self._term_set(term)
                if intent.entities and ops:
                    # "create a new task in the project": the verb's ops on the things named, not on others the
                    # vocabulary knows (goals, plans); all of them when it has none on the things named.
                    by_entity = self._by_entity_of(term)
                    narrowed = [d for entity in intent.entities for d in by_entity.get(entity, ())]
                    ops = frozenset([*narrowed, *by_entity.get(None, ())]) if narrowed else ops
                parts[id(ops)] = ops
            # One set for one verb and its synonyms (they share it, see _term_set): the same object for every request
            # that names them, so that what is kept per set (the barred ops here, the lifted blocks in the index) is
            # worked out once, not once per request (2 to 5 ms at 100,000 ops).
            named = next(iter(parts.values())) if len(parts) == 1 else frozenset().union(*parts.values())
            barred = self._barred_besides(named) if not intent.asks_removal else frozenset()
            if len(self._factors) >= MAX_FACTORS:
                self._factors.clear()
            found = self._factors[key] = (named, barred)
        named, barred = found
        return (named if self._structured else frozenset()), barred

    def _term_set(self, term: str) -> frozenset[int]:
        """The ops of an action term as a set, made once per term; terms with the same ops (a verb's synonyms) share one set."""
        found = self._term_sets.get(term)
        if found is None:
            found = frozenset(self._by_action_term.get(term, ()))
            found = next((kept for kept in self._term_sets.values() if len(kept) == len(found) and kept == found), found)
            self._term_sets[term] = found  # published whole: searches run on several threads
        return found

    def _barred_besides(self, named: frozenset[int]) -> frozenset[int]:
        """The destructive ops that ``named`` does not ask for, kept per set named (the sets of :meth:`_term_set` recur)."""
        found = self._barred.get(named)
        if found is None:
            if len(self._barred) >= MAX_FACTORS:
                self._barred.clear()
            found = self._barred[named] = self._destructive.difference(named)
        return found

    def _by_entity_of(self, term: str) -> dict[str | None, list[int]]:
        """The ops of an action term by entity (None: an entity the vocabulary has no words for), worked out once per term."""
        found = self._action_term_entities.get(term)
        if found is None:
            found = {}
            for doc_id in self._by_action_term.get(term, ()):
                found.setdefault(self._entity_of.get(doc_id), []).append(doc_id)
            self._action_term_entities[term] = found  # published whole: searches run on several threads
        return found

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
