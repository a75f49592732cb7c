"""An encoder made once gives the text ``json.JSONEncoder(check_circular=False, ...).encode`` gives."""

from __future__ import annotations

import json
import threading

import pytest

from opgate.core._json_encoder import encoder_made_once

VALUES = [
    {"b": 1, "a": "caf\u00e9 \u2028", "c": [1.5, None, True, float("nan"), float("inf"), -0.0]},
    {"k": {"z": 1, "a": [2, {"y": "x\"\\\n"}]}}, "x\"y", "\ud800", 3, 10**50, 1.0, [], {}, None, True,
]
OPTIONS = [
    {"sort_keys": True},
    {"sort_keys": True, "separators": (",", ":"), "ensure_ascii": False},
    {"ensure_ascii": False, "default": str},
]


@pytest.mark.parametrize("options", OPTIONS)
def test_the_same_text_as_a_fresh_encoder(options):
    encode, reference = encoder_made_once(**options), json.JSONEncoder(check_circular=False, **options).encode
    for value in VALUES:
        assert encode(value) == reference(value), value


def test_what_cannot_be_encoded_fails_as_it_did():
    with pytest.raises(TypeError, match="not JSON serializable"):
        encoder_made_once(sort_keys=True)({"o": object()})
    assert encoder_made_once(default=str)({"o": 1j}) == '{"o": "1j"}'
    cycle: list = []
    cycle.append(cycle)
    with pytest.raises(RecursionError):  # as with check_circular=False: no table of seen objects is shared
        encoder_made_once()(cycle)


def test_threads_share_one_encoder():
    encode = encoder_made_once(sort_keys=True, default=str)
    values = [{"n": n, "text": "x" * n, "odd": object() if n % 7 == 0 else None} for n in range(200)]
    expected = [json.dumps(value, sort_keys=True, default=str) for value in values]
    failures = []

    def work():
        for _ in range(20):
            if [encode(value) for value in values] != expected:
                failures.append(1)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures
