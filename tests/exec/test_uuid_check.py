"""The quick check's ``uuid`` test must accept exactly what jsonschema's format checker accepts."""

from __future__ import annotations

import random
import uuid

from opgate.core.exec._quick_check import _is_uuid


def _jsonschema_says(text: str) -> bool:
    """What jsonschema's ``uuid`` format check does: ``uuid.UUID`` parses it, and dashes sit at 8, 13, 18 and 23."""
    try:
        uuid.UUID(text)
    except ValueError:
        return False
    return all(text[position] == "-" for position in (8, 13, 18, 23))


def _texts() -> list[str]:
    pick = random.Random(16)
    alphabet = "0123456789abcdefABCDEFg-xZ {}\u00e9\u0661\uff10"
    texts = [str(uuid.uuid4()) for _ in range(300)] + [str(uuid.uuid4()).upper() for _ in range(50)]
    for _ in range(5000):
        chars = list(str(uuid.UUID(int=pick.getrandbits(128))))
        for _ in range(pick.randint(1, 3)):
            chars[pick.randrange(36)] = pick.choice(alphabet)
        if pick.random() < 0.1:
            chars.insert(pick.randrange(36), "-")
        if pick.random() < 0.1:
            del chars[pick.randrange(len(chars))]
        texts.append("".join(chars))
    return texts + ["", "-" * 36, "0" * 36, "0" * 32, "{" + str(uuid.uuid4()) + "}", "urn:uuid:" + str(uuid.uuid4())]


def test_the_quick_uuid_test_agrees_with_jsonschema_on_every_text():
    texts = _texts()
    for text in texts:
        if _is_uuid(text):  # a quick yes must be jsonschema's yes
            assert _jsonschema_says(text), text
    # And it answers the canonical form (hex digits and four dashes); a space int() forgives, or a fifth dash, is left to jsonschema.
    canonical = [text for text in texts if _jsonschema_says(text) and len(text) == 36 and text.count("-") == 4 and set(text) <= set("0123456789abcdefABCDEF-")]
    assert len(canonical) > 300 and all(_is_uuid(text) for text in canonical)
