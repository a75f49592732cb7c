"""Input echoed back in a message: whole when short, else its head and how long it was.

An op name, argument or word of a megabyte must not come back whole in an
error: a terminal floods and a model's context fills, while the head is
enough to tell which input is meant. Every front end echoes through here.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["ECHO_CHARS", "quoted", "shortened", "shortened_words"]

ECHO_CHARS = 80


def shortened(text: str, chars: int = ECHO_CHARS) -> str:
    """``text`` itself when at most ``chars`` long, else its first ``chars`` characters, an ellipsis and its length."""
    return text if len(text) <= chars else f"{text[:chars]}… ({len(text):,} characters)"


def quoted(value: Any, chars: int = ECHO_CHARS) -> str:
    """``repr(value)`` for a message, its text cut as :func:`shortened` does (control characters stay escaped).

    Never raises: a value ``repr`` cannot write (an int past Python's 4,300
    digits, a list nested past the recursion limit) is named by its kind.
    """
    if not isinstance(value, str):
        return shortened(_repr(value), chars)
    return repr(value) if len(value) <= chars else f"{value[:chars]!r}… ({len(value):,} characters)"


def _repr(value: Any) -> str:
    try:
        return repr(value)
    except (ValueError, RecursionError, MemoryError):
        pass
    except Exception:  # a repr of the caller's own that fails: the message must still be made
        return f"(a {type(value).__name__} that cannot be shown)"
    if isinstance(value, int):
        return f"(an integer of about {int(value.bit_length() * 0.30103):,} digits)"
    return f"(a {type(value).__name__} nested too deeply to show)"


_LONG_WORD = re.compile(r"\S{%d,}" % (ECHO_CHARS + 1))


def shortened_words(text: str, chars: int = 2_000) -> str:
    """``text`` with each word longer than ``ECHO_CHARS`` cut as :func:`shortened` does, then the whole cut at ``chars``.

    For messages made elsewhere (argparse, the operating system) that echo an input whole inside a sentence.
    """
    return shortened(_LONG_WORD.sub(lambda word: shortened(word.group()), text), chars)
