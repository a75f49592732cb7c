"""Checking the arguments of the tools a model calls (gateway, generic and protocol tools)."""

from __future__ import annotations

from typing import Any

from ..exec._envelope import failure


def _bad_arguments(tool: str, message: str) -> dict[str, Any]:
    return failure(tool, "VALIDATION_ERROR", message, help_path="root")


def check_arguments(tool: str, arguments: Any, schema: dict[str, Any]) -> dict[str, Any]:
    """The arguments if they fit the tool's schema, else a VALIDATION_ERROR envelope (never an exception).

    The schemas are not closed (to save bytes on every turn), so unknown
    names are refused here explicitly.
    """
    if arguments is None:
        arguments = {}
    if not isinstance(arguments, dict):
        return _bad_arguments(tool, f"{tool} takes an object of arguments")
    allowed = set(schema.get("properties", {}))
    unknown = sorted(str(name) for name in set(arguments) - allowed)
    if unknown:
        return _bad_arguments(tool, f"{tool} does not take {', '.join(map(repr, unknown))}; it takes {', '.join(sorted(allowed))}")
    # Loaded here, not at import: jsonschema costs every command that never checks a tool call.
    from jsonschema import Draft202012Validator

    from ..exec._validation import field_errors_of

    errors = list(Draft202012Validator(schema).iter_errors(arguments))
    if errors:
        field_errors = field_errors_of(errors)
        return failure(tool, "VALIDATION_ERROR", f"{tool}: {field_errors[0]['message']}", help_path="root", field_errors=field_errors)
    return arguments


def is_envelope_error(value: Any) -> bool:
    return isinstance(value, dict) and value.get("ok") is False and "op" in value
