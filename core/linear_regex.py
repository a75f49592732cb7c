"""Matching a catalogue's ``pattern`` in time linear in the text.

Python's ``re`` backtracks: ``^(a+)+$`` against 28 ``a`` and a ``!`` took
12.6 s, and validation runs before the hard timeout starts, so one argument
could hold a worker for as long as it liked. JSON Schema patterns are
ECMA-262 regular expressions; the engine here is the Rust ``regex`` crate, as
jsonschema-rs exposes it (its ``RegexOptions``: ECMA syntax translated, no
backtracking, linear time). It does not support lookaround or
backreferences: a pattern that needs them is reported when the catalogue
loads, and its tool is left out, rather than matched slowly.

jsonschema-rs is already a dependency (it checks schemas at load), so this
needs nothing new; one small compiled validator per distinct pattern is kept.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

# Compiled size of one pattern (bytes); a pattern that needs more, like a{1000}{1000}, is refused at load.
PATTERN_SIZE_LIMIT = 2 * 1024 * 1024


class PatternNotSupported(ValueError):
    """A pattern the linear-time engine cannot compile: invalid, too large, or using lookaround or backreferences."""


@lru_cache(maxsize=4096)
def compile_pattern(pattern: str) -> Callable[[str], bool]:
    """A function telling whether a string contains a match of ``pattern`` (JSON Schema ``pattern`` semantics)."""
    import jsonschema_rs  # on the first pattern: a call whose values meet none never loads it

    try:
        validator = jsonschema_rs.validator_for(
            {"type": "string", "pattern": pattern},
            pattern_options=jsonschema_rs.RegexOptions(size_limit=PATTERN_SIZE_LIMIT),
        )
    except (jsonschema_rs.ValidationError, ValueError) as exc:
        raise PatternNotSupported(
            f"pattern {pattern!r} cannot be matched in linear time: it is not a valid regular expression, compiles too large, "
            "or uses lookaround or backreferences; rewrite it without them"
        ) from exc
    return validator.is_valid


def search(pattern: str, text: str) -> bool:
    """Whether ``text`` contains a match of ``pattern``; raises :class:`PatternNotSupported` for a pattern the engine refuses."""
    return compile_pattern(pattern)(text)


__all__ = ["PATTERN_SIZE_LIMIT", "PatternNotSupported", "compile_pattern", "search"]
