"""The intent reader's phrase lookup answers as the regular expression it stands for."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from opgate.core.search._intent import default_intent_reader
from opgate.core.search._phrases import PhraseMatcher

VOCABULARY = json.loads((Path(__file__).parents[2] / "core" / "search" / "intent_words.json").read_text(encoding="utf-8"))


def _word_lists() -> list[list[str]]:
    lists = [VOCABULARY["removal"], VOCABULARY["read"], VOCABULARY["verbs"] + [w for g in VOCABULARY["states"] for w in g["words"]]]
    lists += [group["words"] for group in VOCABULARY["states"]]
    lists += list(VOCABULARY["entities"].values())
    return lists


def _regex(phrases: list[str]) -> re.Pattern[str]:
    """What the reader compiled before (the sort by length alone: equal lengths never both match at one place)."""
    ordered = sorted({p.lower() for p in phrases}, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(p) for p in ordered) + r")(?![\w-])")


GLUE = [" ", " ", " ", "-", "_", ",", ".", "'", "é", "x", "1", "!", "  ", "ß", "\u2019", "/", "", "s", "ed", "re-"]


def _texts(phrases: list[str], count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    pool = phrases + ["the", "task", "please", "it", "and", "then", "document", "mark", "all", "de", "lete"]
    texts = []
    for _ in range(count):
        pieces = []
        for _ in range(rng.randint(0, 6)):
            word = rng.choice(pool)
            if rng.random() < 0.2 and len(word) > 2:  # a phrase cut short or run into another word
                cut = rng.randint(1, len(word) - 1)
                word = word[:cut] if rng.random() < 0.5 else word[cut:]
            pieces += [word, rng.choice(GLUE)]
        texts.append("".join(pieces).lower())
    return texts


@pytest.mark.parametrize("index", range(len(_word_lists())))
def test_search_and_match_agree_with_the_pattern(index):
    phrases = _word_lists()[index]
    pattern, matcher = _regex(phrases), PhraseMatcher(phrases)
    for text in _texts(phrases, 1500, seed=index):
        assert (matcher.search(text) is None) == (pattern.search(text) is None), text
        expected, found = pattern.match(text), matcher.match(text)
        assert (found is None) == (expected is None), text
        if expected is not None:
            assert found.group(0) == expected.group(0), text


def test_edge_cases():
    matcher = PhraseMatcher(["done", "wrap up", "get rid", "del", "rm"])
    pattern = _regex(["done", "wrap up", "get rid", "del", "rm"])
    for text in ["", "done", "re-done", "done-ish", "undone", "done_", "_done", "it's done.", "wrap  up", "wrap up!", "get rid of it",
                 "deleted", "del it", "rm -rf", "form", "éddone", "done\u00e9", "\u2019done", "done done", "donedone done", "x-rm rm"]:
        assert (matcher.search(text) is None) == (pattern.search(text) is None), text
        expected = pattern.match(text)
        assert (None if expected is None else expected.group(0)) == (None if matcher.match(text) is None else matcher.match(text).group(0)), text


def test_requests_read_as_before():
    """The shipped reader, end to end, on requests of every kind the vocabulary covers."""
    reader = default_intent_reader()
    removal, read = _regex(VOCABULARY["removal"]), _regex(VOCABULARY["read"])
    states = [(_regex(g["words"]), tuple(g["values"])) for g in VOCABULARY["states"]]
    for text in _texts(VOCABULARY["removal"] + VOCABULARY["read"] + VOCABULARY["verbs"] + ["task", "doc", "goal"], 800, seed=99):
        intent = reader.read_request(text)
        assert intent.asks_removal == (removal.search(intent.text) is not None)
        assert intent.asks_read == (read.search(intent.text) is not None)
        expected_state = () if intent.asks_read else next((values for p, values in states if p.search(intent.text)), ())
        assert intent.state == expected_state
        assert intent.entities == tuple(kind for kind, words in VOCABULARY["entities"].items() if _regex(words).search(intent.text))
