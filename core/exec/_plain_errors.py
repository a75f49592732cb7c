"""Schema errors in plain words, with what was expected (and an example for dates and ids).

jsonschema's own messages are written for programmers (``{'task_id': '…'}
does not have enough properties``); a person or a model fixing a call needs
to read what is wrong with which value and what would be right.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from ..echo_text import quoted

if TYPE_CHECKING:
    from .._jsonschema import ValidationError

# What a value of each format looks like.
FORMAT_EXAMPLES = {
    "uuid": "an id such as 10000000-0000-4000-8000-000000000001",
    "date-time": "a date and time such as 2026-03-01T09:00:00Z (Z or an offset such as +02:00)",
    "date": "a date such as 2026-03-01 (YYYY-MM-DD)",
    "time": "a time such as 09:30:00Z (HH:MM:SS with Z or an offset)",
    "email": "an email address such as name@example.com",
    "uri": "an absolute address such as https://example.com/page",
    "ipv4": "an IPv4 address such as 192.0.2.1",
}
_TYPE_WORDS = {"string": "text", "integer": "a whole number", "number": "a number", "boolean": "true or false",
               "object": "an object", "array": "a list", "null": "null"}


def _shown(value: Any) -> str:
    try:
        text = json.dumps(value, ensure_ascii=False, default=str)
    except (ValueError, TypeError, RecursionError):  # a value no JSON can write (a batch step's, from Python): named, not quoted
        text = quoted(value)
    return text if len(text) <= 60 else text[:59] + "…"


def _kind_of(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    for kind, python in (("null", type(None)), ("integer", int), ("number", float), ("string", str), ("array", list), ("object", dict)):
        if isinstance(value, python):
            return _TYPE_WORDS[kind]
    return type(value).__name__


def _expected_types(value: Any) -> str:
    kinds = value if isinstance(value, list) else [value]
    return " or ".join(_TYPE_WORDS.get(str(k), str(k)) for k in kinds)


def _plural(count: Any, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _too_few_properties(error: ValidationError) -> str:
    given = sorted(error.instance) if isinstance(error.instance, dict) else []
    needed = _plural(error.validator_value, "argument")
    if given:
        return f"needs at least {needed}; only {', '.join(given)} {'was' if len(given) == 1 else 'were'} given: add what should change"
    return f"needs at least {needed}"


def plain_message(error: ValidationError) -> str:
    """A sentence for ``error``; jsonschema's message when there is no better one."""
    rule, want, value = str(error.validator), error.validator_value, error.instance
    if rule == "type":
        return f"{_shown(value)} is {_kind_of(value)}; expected {_expected_types(want)}"
    if rule == "format":
        return f"{_shown(value)} is not a valid {want}; expected {FORMAT_EXAMPLES.get(str(want), f'a {want}')}"
    if rule in ("enum", "const"):
        allowed = want if rule == "enum" else [want]
        return f"{_shown(value)} is not one of {', '.join(_shown(v) for v in allowed)}"
    if rule == "minProperties":
        return _too_few_properties(error)
    if rule == "maxProperties":
        return f"takes at most {_plural(want, 'argument')}"
    if rule in ("minimum", "exclusiveMinimum"):
        return f"{_shown(value)} is too small; expected {'at least' if rule == 'minimum' else 'more than'} {want}"
    if rule in ("maximum", "exclusiveMaximum"):
        return f"{_shown(value)} is too large; expected {'at most' if rule == 'maximum' else 'less than'} {want}"
    if rule == "minLength":
        return "must not be empty" if want == 1 else f"is too short; expected at least {_plural(want, 'character')}"
    if rule == "maxLength":
        return f"is too long ({len(value) if isinstance(value, str) else '?'} characters); expected at most {want}"
    if rule == "minItems":
        return f"needs at least {_plural(want, 'item')}"
    if rule == "maxItems":
        return f"takes at most {_plural(want, 'item')}"
    if rule == "uniqueItems":
        return "holds the same item twice; each item must be different"
    if rule == "pattern":
        return f"{_shown(value)} does not have the expected shape (the pattern {want})"
    if rule in ("oneOf", "anyOf"):
        return f"{_shown(value)} matches none of the accepted shapes; the op's help shows them"
    if rule == "multipleOf":
        return f"{_shown(value)} must be a multiple of {want}"
    return error.message
