"""Ids drawn from a seed: spelled exactly as ``uuid.UUID(bytes=..., version=4)`` spells them.

``_SeededIds.next`` marks the version and variant bits and formats the hex
itself rather than building a UUID object; the ids must not change, since a
dry-run made before an upgrade hands its seed to a real run after it.
"""

from __future__ import annotations

import hashlib
import os
import uuid

from opgate.core.store._rows import new_id, seeded_ids


def _reference(seed: str, count: int) -> str:
    digest = hashlib.sha256(f"{seed}:{count}".encode()).digest()
    return str(uuid.UUID(bytes=digest[:16], version=4))


def test_seeded_ids_match_the_uuid_module_for_many_seeds():
    seeds = [os.urandom(16).hex() for _ in range(300)] + ["12345678", "x" * 128, "seed with spaces and é"]
    for seed in seeds:
        with seeded_ids(seed):
            made = [new_id() for _ in range(5)]
        assert made == [_reference(seed, count) for count in range(1, 6)]


def test_seeded_ids_are_version_4_uuids_and_repeat_for_the_same_seed():
    with seeded_ids("a fixed seed"):
        first = [new_id() for _ in range(50)]
    with seeded_ids("a fixed seed"):
        again = [new_id() for _ in range(50)]
    assert first == again
    assert len(set(first)) == 50
    for text in first:
        parsed = uuid.UUID(text)
        assert parsed.version == 4 and parsed.variant == uuid.RFC_4122 and str(parsed) == text
