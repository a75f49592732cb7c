"""bound_envelope measures meta.entities on its own; it must decide exactly as a walk of the whole envelope does."""

from __future__ import annotations

import uuid

from opgate.core.exec._results import (
    _longest_string,
    _surely_plain,
    _writable_text,
    bound_envelope,
    bound_success,
)

LIMIT = 16_000


def _walked_plain(envelope: dict, limit: int) -> bool:
    """The whole envelope but its result, encoded and walked: nothing to scrub, nothing to cut."""
    body = {key: value for key, value in envelope.items() if key != "result"}
    text = _writable_text(body)
    longest = max(200, limit // 16)
    return text is not None and len(text) <= limit and (len(text) <= longest or _longest_string(body) <= longest)


def _envelope(entities: list, **meta) -> dict:
    return {"op": "onto.task.list", "ok": True, "result": {"tasks": []},
            "meta": {"trace_id": "tr_0123456789abcdef", "latency_ms": 0.5, "warnings": [], "entities": entities, **meta}}


def _cases() -> list[tuple[str, dict, int]]:
    ids = [str(uuid.UUID(int=n)) for n in range(50)]
    return [
        ("fifty ids", _envelope(ids), LIMIT),
        ("no ids", _envelope([]), LIMIT),
        ("accented ids", _envelope(["café-" + i for i in ids]), LIMIT),
        ("an id with a lone surrogate", _envelope([*ids[:3], "bad\ud800id"]), LIMIT),
        ("an id past the string bound", _envelope([*ids[:3], "x" * 1_200]), LIMIT),
        ("ids that fill the envelope", _envelope(["y" * 990 for _ in range(20)]), LIMIT),
        ("ids whose escapes fill it", _envelope(["\n" * 900 for _ in range(4)]), 4_000),
        ("ids just under a small limit", _envelope(ids[:5]), 400),
        ("ids just over a small limit", _envelope(ids[:6]), 400),
        ("an id that is a number", _envelope([*ids[:3], 7]), LIMIT),
        ("a long warning beside the ids", _envelope(ids, warnings=["w" * 1_500]), LIMIT),
        ("entities that are not a list", _envelope("not a list"), LIMIT),
    ]


def test_the_envelope_comes_back_untouched_exactly_when_a_walk_finds_nothing_to_do():
    for name, envelope, limit in _cases():
        assert (bound_envelope(envelope, limit) is envelope) == _walked_plain(envelope, limit), name


def test_what_it_hands_back_is_writable_and_bounded():
    for name, envelope, limit in _cases():
        bounded = bound_envelope(envelope, limit)
        body = {key: value for key, value in bounded.items() if key != "result"}
        assert _writable_text(body) is not None, name
        assert _longest_string(body) <= max(200, limit // 16) or "truncated" in bounded["meta"], name


def _quick_cases() -> list[tuple[str, dict, int]]:
    """Envelopes near every edge of the quick yes: control characters, the string bound, small limits, other meta."""
    ids = [str(uuid.UUID(int=n)) for n in range(50)]
    return [*_cases(),
        ("a get's envelope", _envelope(ids[:2]), LIMIT),
        ("control characters in the ids", _envelope(["\x01" * 180 for _ in range(12)]), 4_000),
        ("control characters just fitting", _envelope(["\x1f" * 100]), 1_000),
        ("an id at the string bound", _envelope(["z" * 1_000]), LIMIT),
        ("an id one past it", _envelope(["z" * 1_001]), LIMIT),
        ("a long op", {**_envelope(ids[:1]), "op": "o" * 5_000}, LIMIT),
        ("a non-ASCII op", {**_envelope(ids[:1]), "op": "onto.tâche.get"}, LIMIT),
        ("a lone surrogate in a warning", _envelope(ids[:1], warnings=["\udc80"]), LIMIT),
        ("warnings that are not a list", _envelope(ids[:1], warnings="soon"), LIMIT),
        ("a warning that is not text", _envelope(ids[:1], warnings=[3]), LIMIT),
        ("an integer latency", {**_envelope(ids[:1]), "meta": {**_envelope(ids[:1])["meta"], "latency_ms": 10 ** 400}}, LIMIT),
        ("a diff in meta", _envelope(ids[:1], diff={"created": []}), LIMIT),
        ("an error envelope", {"op": "x", "ok": False, "error": {"code": "NOT_FOUND"}, "meta": {"trace_id": "tr_0"}}, LIMIT),
        ("a tiny limit", _envelope(ids[:1]), 250),
    ]


def test_the_quick_yes_is_only_said_where_the_walk_says_yes_too():
    said_yes = []
    for name, envelope, limit in _quick_cases():
        if _surely_plain(envelope, limit):
            assert _walked_plain(envelope, limit), name
            said_yes.append(name)
    # It must also answer the usual case, or it saves nothing.
    assert {"fifty ids", "no ids", "a get's envelope", "an id at the string bound"} <= set(said_yes)


def test_envelopes_the_quick_yes_turns_down_are_still_decided_exactly():
    for name, envelope, limit in _quick_cases():
        assert (bound_envelope(envelope, limit) is envelope) == _walked_plain(envelope, limit), name


def test_a_success_bounded_without_asking_its_keys_comes_back_as_bound_envelope_gives_it():
    """bound_success (the dispatcher's, for envelopes success() made) skips only the keys' check: same answer, same identity."""
    for name, envelope, limit in _quick_cases():
        if envelope.get("ok") is not True or sorted(envelope) != ["meta", "ok", "op", "result"]:
            continue
        expected, got = bound_envelope(envelope, limit), bound_success(envelope, limit)
        assert got == expected, name
        assert (got is envelope) == (expected is envelope), name
