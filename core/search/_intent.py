"""What a request asks for, beyond its words: removal, a state change, several ops.

The vocabulary lives in ``intent_words.json``. Three readings come out of it:

- ``asks_removal``: the request asks to remove something ("delete", "get rid
  of", "unlink"). Without it a destructive op never ranks first.
- ``state``: the state values a state-change request means ("mark it done"
  -> done, complete, achieved...), unless the request asks to see rather than
  change ("list completed tasks").
- ``facets``: the parts of a request for several things ("create a task and
  link it to the goal" -> two parts; see :mod:`._facets`).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path

from .._record import record
from ._facets import split_facets
from ._phrases import PhraseMatcher
from ._spelling import Speller


def _phrase_pattern(phrases: list[str]) -> PhraseMatcher:
    """The phrases as words of their own (``(?<![\\w-])(?:...)(?![\\w-])``, found without compiling a pattern: see :mod:`._phrases`)."""
    return PhraseMatcher(phrases)


def normalize(text: str) -> str:
    """Lower case, curly apostrophes straightened, spaces collapsed."""
    return " ".join(text.lower().replace("\u2019", "'").split())


@record(frozen=True)
class Intent:
    """How one request reads. ``state`` is empty unless it asks for a state change."""

    asks_removal: bool
    asks_read: bool
    state: tuple[str, ...]
    entities: tuple[str, ...]
    facets: tuple[str, ...]
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
        self._verb_speller = Speller(Counter(w for w in vocabulary["verbs"] if " " not in w))

    def read_request(self, query: str, known: Callable[[str], bool] = lambda word: False, *, split: bool = True) -> Intent:
        """How ``query`` reads; ``known`` says which words the catalogue has (those are never taken for a misspelt verb).

        ``split=False`` reads it as one facet (a facet of a request is not split again).
        """
        text = normalize(query)
        asks_read = self.read.search(text) is not None
        state: tuple[str, ...] = ()
        if not asks_read:
            for pattern, values in self.states:
                if pattern.search(text):
                    state = values
                    break
        entities = tuple(kind for kind, pattern in self.entities if pattern.search(text))
        return Intent(self.removal.search(text) is not None, asks_read, state, entities, self._facets(text, known) if split else (text,), text)

    def _facets(self, text: str, known: Callable[[str], bool]) -> tuple[str, ...]:
        """The facets of a request for several things; one (the request) when it asks for one."""
        return split_facets(text, lambda piece: self._verb_at_start(piece, known), self._kinds_named)

    def _verb_at_start(self, piece: str, known: Callable[[str], bool]) -> tuple[str | None, str]:
        """The verb ``piece`` starts with, and the piece with it spelled right ("creat a task" -> create)."""
        verb = self.verbs.match(piece)
        if verb:
            return verb.group(0), piece
        first, _, rest = piece.partition(" ")
        fixed = None if known(first) else self._verb_speller.correct(first)
        if fixed is None:
            return None, piece
        return fixed, f"{fixed} {rest}".strip()

    def _kinds_named(self, piece: str) -> frozenset[str]:
        return frozenset(kind for kind, pattern in self.entities if pattern.search(piece))


@lru_cache(maxsize=1)
def default_intent_reader() -> IntentReader:
    text = Path(__file__).with_name("intent_words.json").read_text(encoding="utf-8")
    return IntentReader(json.loads(text))
