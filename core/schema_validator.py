"""Which validator checks a catalogue schema: a known draft, chosen by ``$schema``, never fetched.

A ``$schema`` is a name, not an address to visit. Loading a catalogue used to
hand it to jsonschema-rs, which fetched it (two requests per tool; a server
that never answered held every command for 31 s; ``urn:example:meta`` crashed
them). Here the value is looked up in the drafts both validators ship, and
anything else is a load problem for that one tool.

The classes are jsonschema's own, with the keywords that match regular
expressions (``pattern``, ``patternProperties``, and ``additionalProperties``,
which asks the same patterns) answered by :mod:`.linear_regex`. jsonschema
has no switch for its regex engine yet (python-jsonschema#1142), so the three
keyword functions are replaced through ``validators.extend``, its documented
way to change a keyword. ``unevaluatedProperties`` also matches
``patternProperties`` on its own; a schema combining the two is refused at
load (see ``_schema_check``) rather than matched with ``re``.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from typing import Any

from ._jsonschema import Draft4Validator, Draft6Validator, Draft7Validator, Draft201909Validator, Draft202012Validator, ValidationError, validators

from .linear_regex import search

DEFAULT_DIALECT = "https://json-schema.org/draft/2020-12/schema"
_DRAFTS: dict[str, type] = {
    "json-schema.org/draft/2020-12/schema": Draft202012Validator,
    "json-schema.org/draft/2019-09/schema": Draft201909Validator,
    "json-schema.org/draft-07/schema": Draft7Validator,
    "json-schema.org/draft-06/schema": Draft6Validator,
    "json-schema.org/draft-04/schema": Draft4Validator,
}
DRAFT_NAMES = {
    Draft202012Validator: "draft 2020-12", Draft201909Validator: "draft 2019-09",
    Draft7Validator: "draft 7", Draft6Validator: "draft 6", Draft4Validator: "draft 4",
}
KNOWN_DIALECTS = tuple(f"https://{name}" if "/draft/" in name else f"http://{name}#" for name in _DRAFTS)
"""The ``$schema`` values accepted, as each draft spells itself (http or https, with or without a final ``#``, also pass)."""


class UnsupportedDialect(ValueError):
    """A ``$schema`` that is not one of the known drafts."""


def _draft_key(dialect: str) -> str:
    for scheme in ("https://", "http://"):
        if dialect.startswith(scheme):
            return dialect[len(scheme):].removesuffix("#")
    return dialect


def draft_of(schema: Any) -> type:
    """jsonschema's class for the draft ``schema["$schema"]`` names (2020-12 when it names none)."""
    dialect = schema.get("$schema", DEFAULT_DIALECT) if isinstance(schema, dict) else DEFAULT_DIALECT
    base = _DRAFTS.get(_draft_key(dialect)) if isinstance(dialect, str) else None
    if base is None:
        raise UnsupportedDialect(f"$schema {dialect!r} is not a draft this gateway knows; it is never fetched. Use one of {', '.join(KNOWN_DIALECTS)}, or leave $schema out for 2020-12")
    return base


def _pattern(validator: Any, pattern: str, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if validator.is_type(instance, "string") and not search(pattern, instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


def _pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    if not validator.is_type(instance, "object"):
        return
    for pattern, subschema in patterns.items():
        for name, value in instance.items():
            if search(pattern, name):
                yield from validator.descend(value, subschema, path=name, schema_path=pattern)


def _extras(instance: dict[str, Any], schema: dict[str, Any]) -> list[str]:
    properties = schema.get("properties", {})
    patterns = list(schema.get("patternProperties", {}))
    return [name for name in instance if name not in properties and not any(search(p, name) for p in patterns)]


def _additional_properties(validator: Any, additional: Any, instance: Any, schema: dict[str, Any]) -> Iterator[ValidationError]:
    # jsonschema's own, but asking the linear engine which names the patterns cover.
    if not validator.is_type(instance, "object"):
        return
    extras = _extras(instance, schema)
    if validator.is_type(additional, "object"):
        for name in extras:
            yield from validator.descend(instance[name], additional, path=name)
    elif not additional and extras:
        names = ", ".join(repr(name) for name in sorted(extras))
        if "patternProperties" in schema:
            patterns = ", ".join(repr(p) for p in sorted(schema["patternProperties"]))
            yield ValidationError(f"{names} {'does' if len(extras) == 1 else 'do'} not match any of the regexes: {patterns}")
        else:
            yield ValidationError(f"Additional properties are not allowed ({names} {'was' if len(extras) == 1 else 'were'} unexpected)")


@cache
def _linear(base: type) -> type:
    return validators.extend(base, {"pattern": _pattern, "patternProperties": _pattern_properties, "additionalProperties": _additional_properties})


def validator_class_for(schema: Any) -> type:
    """The validator class for ``schema``: its draft, matching patterns in linear time. Raises :class:`UnsupportedDialect`."""
    return _linear(draft_of(schema))


__all__ = ["DEFAULT_DIALECT", "DRAFT_NAMES", "KNOWN_DIALECTS", "UnsupportedDialect", "draft_of", "validator_class_for"]
