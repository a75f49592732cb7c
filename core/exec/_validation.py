"""Checking arguments against an op's schema: every error, with its path and a way to fix it.

Validators are built once per op and kept (schemas were checked when the
registry loaded). Each is the draft its ``$schema`` names, matches patterns in
linear time, checks formats for real and never fetches a remote ``$ref``:
its reference registry is empty. A schema that still cannot be used (a
registry built without the load checks) answers VALIDATION_ERROR saying so,
never INTERNAL.

Arguments that :func:`._quick_check.certainly_valid` vouches for (a flat
schema, keywords it knows, values that pass) need no validator at all, so
jsonschema and its reference machinery are imported only for the first call
that it cannot vouch for: every failure, and every schema beyond it.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any

from ..linear_regex import search
from ..echo_text import quoted
from ._quick_check import certainly_valid
from ._valid_args import ValidArgs, flat_key

if TYPE_CHECKING:
    from .._jsonschema import ValidationError
    from ..registry._record import OpRecord


def __getattr__(name: str) -> Any:
    # FORMAT_CHECKER is jsonschema's: read on first use, so importing this module does not load jsonschema.
    if name == "FORMAT_CHECKER":
        from .._jsonschema import Draft202012Validator

        return Draft202012Validator.FORMAT_CHECKER
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _field_name(path: list[Any]) -> str:
    text = "args"
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else f".{part}"
    return text


def _pointer(path: list[Any]) -> str:
    return "/" + "/".join(str(p) for p in path)


def _type_of(schema: dict[str, Any]) -> str:
    kind = schema.get("type")
    if isinstance(kind, list):
        kind = "|".join(kind)
    if kind == "string" and schema.get("format"):
        return f"string ({schema['format']})"
    if "enum" in schema:
        return "one of " + ", ".join(map(str, schema["enum"]))
    return str(kind or "any")


def _closest(name: str, candidates: list[str]) -> str | None:
    import difflib

    found = difflib.get_close_matches(name, candidates, n=1, cutoff=0.5)
    if found:
        return found[0]
    # "id" for "task_id", "project" for "project_id": a shared word counts too.
    words = set(name.lower().replace("-", "_").split("_"))
    sharing = [c for c in candidates if words & set(c.lower().split("_"))]
    return sharing[0] if len(sharing) == 1 else None


MAX_UNKNOWN_ROWS = 50
"""Unknown argument names listed one by one (each looks for a close known name); past this, one last row counts the
rest in ``more``. 30,000 unknown names cost seconds of CPU in suggestions and in the envelope's bound otherwise."""


def problem_count(field_errors: list[dict[str, Any]]) -> int:
    """How many problems the rows stand for: a row that counts names left out stands for each of them."""
    return sum(row.get("more", 1) for row in field_errors)


def _unknown_properties(error: ValidationError) -> list[dict[str, Any]]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    known = list((error.schema.get("properties") or {}) if isinstance(error.schema, dict) else {})
    patterns = list((error.schema.get("patternProperties") or {}) if isinstance(error.schema, dict) else {})
    rows = []
    unknown = [name for name in instance if name not in known and not any(search(pattern, name) for pattern in patterns)]
    for name in unknown[: MAX_UNKNOWN_ROWS - 1] if len(unknown) > MAX_UNKNOWN_ROWS else unknown:
        row: dict[str, Any] = {
            "field": _field_name([*error.absolute_path, name]),
            "path": _pointer([*error.absolute_path, name]),
            "code": "unknown_argument",
            "message": f"unknown argument {quoted(name)}",
            "allowed": known,
        }
        suggestion = _closest(name, known)
        if suggestion:
            row["suggestion"] = suggestion
            row["message"] += f"; did you mean {suggestion!r}?"
        rows.append(row)
    if len(unknown) > MAX_UNKNOWN_ROWS:
        left = len(unknown) - len(rows)
        rows.append({
            "field": _field_name(list(error.absolute_path)),
            "path": _pointer(list(error.absolute_path)),
            "code": "unknown_argument",
            "message": f"{left:,} more unknown arguments, not listed",
            "allowed": known,
            "more": left,
        })
    return rows


def _missing_required(error: ValidationError) -> list[dict[str, Any]]:
    instance = error.instance if isinstance(error.instance, dict) else {}
    properties = error.schema.get("properties") or {}
    rows = []
    for name in error.validator_value:
        if name in instance:
            continue
        expected = _type_of(properties.get(name) or {})
        rows.append({
            "field": _field_name([*error.absolute_path, name]),
            "path": _pointer([*error.absolute_path, name]),
            "code": "missing_required",
            "message": f"missing required argument {name!r} ({expected})",
            "expected": expected,
        })
    return rows


_CODES = {
    "type": "invalid_type", "enum": "not_in_enum", "const": "not_in_enum", "format": "invalid_format",
    "minimum": "out_of_range", "maximum": "out_of_range", "exclusiveMinimum": "out_of_range", "exclusiveMaximum": "out_of_range",
    "minLength": "invalid_length", "maxLength": "invalid_length", "minItems": "invalid_length", "maxItems": "invalid_length",
    "pattern": "pattern_mismatch", "minProperties": "too_few_arguments", "uniqueItems": "duplicate_items",
    "oneOf": "no_matching_variant", "anyOf": "no_matching_variant",
}


def _generic(error: ValidationError) -> dict[str, Any]:
    row: dict[str, Any] = {
        "field": _field_name(list(error.absolute_path)),
        "path": _pointer(list(error.absolute_path)),
        "code": _CODES.get(str(error.validator), f"failed_{error.validator}"),
        "message": _plain_message(error),
    }
    if isinstance(error.schema, dict):
        row["expected"] = _type_of(error.schema)
    if error.validator == "enum":
        row["allowed"] = list(error.validator_value)
        suggestion = _closest(str(error.instance), [str(v) for v in error.validator_value])
        if suggestion:
            row["suggestion"] = suggestion
            row["message"] += f"; did you mean {suggestion!r}?"
    return row


def _tagged_variant_errors(error: ValidationError) -> list[ValidationError] | None:
    """For a oneOf/anyOf that no variant matched: the errors of the one variant the value's tag picks, if one does.

    A variant is ruled out by its tag when one of its errors is a ``const`` or
    ``enum`` failure on a property of the value itself (``kind: "card"``
    against ``kind: "bank"``). When every variant failed and all but one were
    ruled out so, the value meant that one, and its own errors say what to fix;
    otherwise (no tags, several left, or more than one variant matched) None,
    and the shapes are named as a whole. ``$ref`` variants need no resolving:
    only the errors are read.
    """
    variants = error.validator_value
    if error.validator not in ("oneOf", "anyOf") or not isinstance(error.instance, dict) or not isinstance(variants, list):
        return None
    by_variant: dict[Any, list[ValidationError]] = {}
    for sub in error.context or ():
        if sub.relative_schema_path:
            by_variant.setdefault(sub.relative_schema_path[0], []).append(sub)
    if len(by_variant) != len(variants):  # a variant matched (oneOf: more than one did): nothing to pick
        return None
    left = [subs for subs in by_variant.values() if not any(s.validator in ("const", "enum") and len(s.relative_path) == 1 for s in subs)]
    return left[0] if len(left) == 1 and len(left) < len(variants) else None


def _with_tagged_variants(errors: list[ValidationError]) -> list[ValidationError]:
    """``errors``, each oneOf/anyOf whose tag picks a variant replaced by that variant's errors."""
    out: list[ValidationError] = []
    for error in errors:
        chosen = _tagged_variant_errors(error)
        out += _with_tagged_variants(chosen) if chosen is not None else [error]
    return out


def field_errors_of(errors: list[ValidationError]) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    for error in _with_tagged_variants(errors):
        if error.validator == "additionalProperties":
            rows += _unknown_properties(error)
        elif error.validator == "required":
            rows += _missing_required(error)
        else:
            rows.append(_generic(error))
    # jsonschema reports one "required" error per missing name, each listing them all.
    unique = list({(r["path"], r["code"]): r for r in rows}.values())
    unique.sort(key=lambda r: (r["code"] != "unknown_argument", r["code"] != "missing_required", "more" in r, r["field"]))
    return unique


def _plain_message(error: ValidationError) -> str:
    from ._plain_errors import plain_message

    return plain_message(error)


def _unusable_schema_errors() -> tuple[type[BaseException], ...]:
    """What a schema that slipped past the load checks can raise while validating."""
    import referencing.exceptions
    import referencing.jsonschema

    from ..linear_regex import PatternNotSupported
    from ..schema_validator import UnsupportedDialect

    return (RecursionError, referencing.exceptions.Unresolvable, referencing.jsonschema.UnknownDialect, UnsupportedDialect, PatternNotSupported)


def _schema_unusable(record: OpRecord, exc: Exception) -> tuple[list[dict[str, Any]], str]:
    why = "it refers to itself without end (a $ref cycle)" if isinstance(exc, RecursionError) else str(exc) or type(exc).__name__
    message = f"the arguments of {record.op} cannot be checked, because its schema cannot be used: {why}. The catalogue must be fixed; `opgate tools` lists its load problems"
    return [{"field": "args", "path": "", "code": "schema_unusable", "message": message}], message


class ArgumentValidator:
    """Validators for each op, built on first use and shared across threads."""

    def __init__(self) -> None:
        self._validators: dict[tuple[str, int], Any] = {}
        self._lock = threading.Lock()
        self._valid = ValidArgs()

    def _validator(self, record: OpRecord) -> Any:
        key = (record.op, id(record.parameters))
        validator = self._validators.get(key)
        if validator is None:
            import referencing

            from .._jsonschema import Draft202012Validator
            from ..schema_validator import validator_class_for

            # An empty reference registry: a remote $ref is never fetched.
            validator = validator_class_for(record.parameters)(record.parameters, format_checker=Draft202012Validator.FORMAT_CHECKER, registry=referencing.Registry())
            with self._lock:
                self._validators[key] = validator
        return validator

    def known_plain(self, record: OpRecord, args: dict[str, Any]) -> bool:
        """Whether these very arguments (a dict as sent) passed :meth:`check` before, sent plain: they need no check again."""
        return self._valid.plain(record.op, id(record.parameters), args)

    def check(self, record: OpRecord, args: dict[str, Any], plain: bool = False) -> tuple[list[dict[str, Any]], str]:
        """Every field error, and a one-line summary of the most relevant one.

        ``plain``: ``args`` are the arguments as sent, and plain (see
        :meth:`known_plain`).
        """
        key = flat_key(record.op, id(record.parameters), args)
        valid = self._valid
        if key in valid:
            if plain and not valid[key]:
                valid[key] = True
            return [], ""
        if certainly_valid(record.parameters, args):
            valid.add(key, plain)
            return [], ""
        unusable = _unusable_schema_errors()
        try:
            errors = list(self._validator(record).iter_errors(args))
        except unusable as exc:
            return _schema_unusable(record, exc)
        if not errors:
            valid.add(key, plain)
            return [], ""
        from .._jsonschema import best_match

        # A tagged variant's own errors first: best_match would look into every variant and may name another's tag.
        return field_errors_of(errors), _plain_message(best_match(_with_tagged_variants(errors)))
