"""Checking the arguments of the tools a model calls (gateway, generic and protocol tools)."""

from __future__ import annotations

from typing import Any

from ..echo_text import quoted
from ..exec._envelope import failure
from ..jsonpointer import resolve_local_schema

_MAX_REF_DEPTH = 8
_MAX_NESTING = 32
_MAX_VALIDATORS = 64
UNKNOWN_NAMED = 10
"""Unknown argument names a gateway tool's refusal names; the rest are counted."""
# The tools' schemas are module constants: each gets its validator once, not on every call
# (building one took about a tenth of a gateway call over MCP). Keyed by identity, and the
# schema kept with it, so that an id reused by another dict can never find a stale validator.
_validators: dict[int, tuple[dict[str, Any], Any]] = {}


def _bad_arguments(tool: str, message: str) -> dict[str, Any]:
    return failure(tool, "VALIDATION_ERROR", message, help_path="root")


def _accepts_null(schema: Any, root: dict[str, Any], depth: int = 0) -> bool:
    if not isinstance(schema, dict) or depth > _MAX_REF_DEPTH:
        return True
    if isinstance(schema.get("$ref"), str):
        target = resolve_local_schema(root, schema["$ref"])
        return target is None or _accepts_null(target, root, depth + 1)
    if "const" in schema:
        return schema["const"] is None
    if isinstance(schema.get("enum"), list):
        return None in schema["enum"]
    kind = schema.get("type")
    if kind is not None:
        return kind == "null" or (isinstance(kind, list) and "null" in kind) or schema.get("nullable") is True
    for union in ("anyOf", "oneOf"):
        if isinstance(schema.get(union), list):
            return any(_accepts_null(b, root, depth + 1) for b in schema[union])
    return True  # no type: any value, null included


def _schema_of(schema: Any, root: dict[str, Any]) -> Any:
    if isinstance(schema, dict) and isinstance(schema.get("$ref"), str):
        return resolve_local_schema(root, schema["$ref"]) or {}
    return schema


def absent_nulls(arguments: Any, schema: dict[str, Any], root: dict[str, Any] | None = None, depth: int = 0) -> Any:
    """``arguments`` without the nulls given for optional properties whose schema does not take null.

    A strict OpenAI export makes every property required and the optional
    ones nullable (:func:`opgate.core.export.to_strict_schema`), so a model
    says "not given" with null. Read that way, the call means what the model
    meant and validates against the op's own schema. A null the schema does
    take, or one for a required property, is left for validation to judge.
    """
    root = schema if root is None else root
    schema = _schema_of(schema, root)
    if depth > _MAX_NESTING or not isinstance(schema, dict):
        return arguments
    if isinstance(arguments, list) and isinstance(schema.get("items"), dict):
        return [absent_nulls(item, schema["items"], root, depth + 1) for item in arguments]
    properties = schema.get("properties")
    if not isinstance(arguments, dict) or not isinstance(properties, dict):
        return arguments
    required = set(schema.get("required") or [])
    kept = {}
    for name, value in arguments.items():
        sub = properties.get(name)
        if value is None and name in properties and name not in required and not _accepts_null(sub, root):
            continue
        kept[name] = absent_nulls(value, sub, root, depth + 1) if sub is not None else value
    return kept


def check_arguments(tool: str, arguments: Any, schema: dict[str, Any], *, text_object: str | None = None) -> dict[str, Any]:
    """The arguments if they fit the tool's schema, else a VALIDATION_ERROR envelope (never an exception).

    The schemas are not closed (to save bytes on every turn), so unknown
    names are refused here explicitly. ``text_object`` names the argument
    that holds an op's arguments (exec's ``args``, run_tool's
    ``arguments``): sent as JSON text, as models do, it is passed on as it
    came, for exec to parse with a warning (docs/exec.md) or to say why it
    cannot.
    """
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return _bad_arguments(tool, f"{tool} takes an object of arguments")
    if text_object is not None and isinstance(arguments.get(text_object), str):
        checked = check_arguments(tool, {k: v for k, v in arguments.items() if k != text_object}, schema)
        if not is_envelope_error(checked):
            checked[text_object] = arguments[text_object]
        return checked
    arguments = absent_nulls(arguments, schema)
    allowed = set(schema.get("properties", {}))
    unknown = sorted(str(name) for name in set(arguments) - allowed)
    if unknown:
        named = ", ".join(map(quoted, unknown[:UNKNOWN_NAMED]))
        if len(unknown) > UNKNOWN_NAMED:
            named += f" and {len(unknown) - UNKNOWN_NAMED:,} more"
        return _bad_arguments(tool, f"{tool} does not take {named}; it takes {', '.join(sorted(allowed))}")
    from ..exec._validation import field_errors_of

    errors = list(_validator(schema).iter_errors(arguments))
    if errors:
        field_errors = field_errors_of(errors)
        return failure(tool, "VALIDATION_ERROR", f"{tool}: {field_errors[0]['message']}", help_path="root", field_errors=field_errors)
    return arguments


def _validator(schema: dict[str, Any]) -> Any:
    held = _validators.get(id(schema))
    if held is None or held[0] is not schema:
        # Loaded here, not at import: jsonschema costs every command that never checks a tool call.
        from .._jsonschema import Draft202012Validator

        if len(_validators) >= _MAX_VALIDATORS:
            _validators.clear()
        held = _validators[id(schema)] = (schema, Draft202012Validator(schema))
    return held[1]


def is_envelope_error(value: Any) -> bool:
    return isinstance(value, dict) and value.get("ok") is False and "op" in value
