"""What a request asks for, beyond its words: removal, a state change, several ops.

The vocabulary lives in ``intent_words.json``. Three readings come out of it:

- ``asks_removal``: the request asks to remove something ("delete", "get rid
  of", "unlink"). Without it a destructive op never ranks first.
- ``state``: the state values a state-change request means ("mark it done"
  -> done, complete, achieved...), unless the request asks to see rather than
  change ("list completed tasks").
- ``clauses``: the parts of a request for several ops ("create a task and
  link it to the goal" -> two parts), each starting with a verb.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ._phrases import PhraseMatcher

_SPLIT = re.compile(r"\s*(?:,\s*(?:and\s+)?then\b|;|,|\band then\b|\bthen\b|\band also\b|\balso\b|\band\b|\bplus\b)\s*")


def _phrase_pattern(phrases: list[str]) -> PhraseMatcher:
    """The phrases as words of their own (``(?<![\\w-])(?:...)(?![\\w-])``, found without compiling a pattern: see :mod:`._phrases`)."""
    return PhraseMatcher(phrases)


def normalize(text: str) -> str:
    """Lower case, curly apostrophes straightened, spaces collapsed."""
    return " ".join(text.lower().replace("\u2019", "'").split())


@dataclass(frozen=True)
class Intent:
    """How one request reads. ``state`` is empty unless it asks for a state change."""

    asks_removal: bool
    asks_read: bool
    state: tuple[str, ...]
    entities: tuple[str, ...]
    clauses: tuple[str, ...]
    text: str

    def names(self, word: str) -> bool:
        """Whether the request holds ``word`` (an op's action, say) as a word of its own."""
        return re.search(rf"(?<![\w-]){re.escape(word.lower())}", self.text) is not None


class IntentReader:
    """Reads requests with one vocabulary (by default the shipped ``intent_words.json``)."""

    def __init__(self, vocabulary: dict):
        self.removal = _phrase_pattern(vocabulary["removal"])
        self.read = _phrase_pattern(vocabulary["read"])
        self.states = [(_phrase_pattern(group["words"]), tuple(group["values"])) for group in vocabulary["states"]]
        self.state_fields = tuple(vocabulary["state_fields"])
        self.verbs = _phrase_pattern(vocabulary["verbs"] + [w for group in vocabulary["states"] for w in group["words"]])
        self.entities = [(kind, _phrase_pattern(words)) for kind, words in vocabulary["entities"].items()]
        self.entity_kinds = frozenset(vocabulary["entities"])

    def read_request(self, query: str) -> Intent:
        text = normalize(query)
        asks_read = self.read.search(text) is not None
        state: tuple[str, ...] = ()
        if not asks_read:
            for pattern, values in self.states:
                if pattern.search(text):
                    state = values
                    break
        entities = tuple(kind for kind, pattern in self.entities if pattern.search(text))
        return Intent(self.removal.search(text) is not None, asks_read, state, entities, self._clauses(text), text)

    def _clauses(self, text: str) -> tuple[str, ...]:
        """The parts of a request for several ops; one part (the request) when it is not one."""
        pieces = [p for p in _SPLIT.split(text) if p and p.strip()]
        if len(pieces) < 2:
            return (text,)
        clauses: list[str] = []
        lead = ""
        for piece in pieces:
            verb = self.verbs.match(piece)
            if verb:
                lead = verb.group(0)
                clauses.append(piece)
            elif clauses and lead and len(piece.split()) <= 4:
                # "list the tasks and the goals": the second part borrows the first's verb.
                clauses.append(f"{lead} {piece}")
            elif clauses:
                clauses[-1] = f"{clauses[-1]} and {piece}"
            else:
                clauses.append(piece)
        if len(clauses) < 2 or not all(self.verbs.search(c) for c in clauses):
            return (text,)
        return tuple(clauses)


@lru_cache(maxsize=1)
def default_intent_reader() -> IntentReader:
    text = Path(__file__).with_name("intent_words.json").read_text(encoding="utf-8")
    return IntentReader(json.loads(text))
