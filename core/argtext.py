"""Reading ``key=value`` words into arguments, typed by the op's schema.

The CLI and the REPL both accept ``exec onto.task.list state_key=todo limit=5``.
Each value is read as the schema says: integers and numbers as numbers,
booleans from true/false/yes/no/on/off/1/0, arrays and objects as JSON,
``null`` as null where the schema allows it, and strings as they are. A value
the schema does not explain is kept as text; validation then says what is
wrong with it. JSON nested too deeply or too long is refused here, naming the
argument; text that is not UTF-8 goes on to exec, which names the field.
"""

from __future__ import annotations

from typing import Any

from . import safe_json
from .echo_text import quoted

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


class ArgTextError(ValueError):
    """A word that is not ``key=value``, or JSON that does not parse."""


def _json(text: str) -> Any:
    return safe_json.loads(text, what="the value", check_text=False)


def _unusable(exc: safe_json.JsonInputError) -> bool:
    """JSON that is too deep or too long is an error whatever the schema says, not text to keep."""
    return exc.code in ("too_deep", "too_large")


def _types(schema: dict[str, Any]) -> list[str]:
    kind = schema.get("type")
    if isinstance(kind, list):
        return [str(k) for k in kind]
    if isinstance(kind, str):
        return [kind]
    for combiner in ("oneOf", "anyOf"):
        if isinstance(schema.get(combiner), list):
            return [t for s in schema[combiner] if isinstance(s, dict) for t in _types(s)]
    return []


def _convert(text: str, kind: str) -> Any:
    if kind == "null" and text == "null":
        return None
    if kind == "boolean" and text.lower() in _TRUE | _FALSE:
        return text.lower() in _TRUE
    if kind == "integer":
        return int(text)
    if kind == "number":
        number = float(text)
        return int(number) if number.is_integer() and "." not in text and "e" not in text.lower() else number
    if kind in ("array", "object"):
        value = _json(text)
        if isinstance(value, list if kind == "array" else dict):
            return value
        raise ValueError(kind)
    if kind == "string":
        return text
    raise ValueError(kind)


def typed_value(text: str, schema: dict[str, Any] | None) -> Any:
    """``text`` read as the first of the schema's types that accepts it."""
    kinds = _types(schema or {})
    # null first so that "null" clears a nullable field; strings last so they never shadow a number.
    order = sorted(kinds, key=lambda k: {"null": 0, "string": 9}.get(k, 5))
    for kind in order:
        try:
            return _convert(text, kind)
        except safe_json.JsonInputError as exc:
            if _unusable(exc):
                raise
        except ValueError:
            continue
    if not kinds:
        try:
            return _json(text)
        except safe_json.JsonInputError as exc:
            if _unusable(exc):
                raise
            return text
    return text


def parse_key_values(words: list[str], parameters: dict[str, Any]) -> dict[str, Any]:
    """``["limit=5", "state_key=todo"]`` -> ``{"limit": 5, "state_key": "todo"}``; a single JSON object word is taken whole."""
    if len(words) == 1 and words[0].lstrip().startswith("{"):
        try:
            value = safe_json.loads(words[0], what="the arguments", check_text=False)
        except safe_json.JsonInputError as exc:
            raise ArgTextError(exc.message) from None
        if not isinstance(value, dict):
            raise ArgTextError("the arguments must be a JSON object")
        return value
    properties = parameters.get("properties") or {}
    args: dict[str, Any] = {}
    seen: dict[str, str] = {}
    for word in words:
        key, sep, text = word.partition("=")
        if not sep or not key:
            raise ArgTextError(f"{quoted(word)} is not key=value (or give one JSON object)")
        if key in seen:
            # The later word would silently replace the earlier: one of them is a mistake, and only the person knows which.
            raise ArgTextError(f"{quoted(key)} is given twice ({quoted(seen[key])} and {quoted(text)}); give it once")
        seen[key] = text
        try:
            args[key] = typed_value(text, properties.get(key))
        except safe_json.JsonInputError as exc:
            raise ArgTextError(f"{key}: {exc.message}") from None
    return args
