"""From a handler's error type to an envelope code: the table, and the one function that applies it.

Handlers speak in the failure types of the authoring guide (``TRANSIENT``,
``SESSION_INACTIVE``...); callers see the gateway's five codes. The type the
handler gave is always kept in ``error.details.type``, so nothing is lost.
``opgate.tool.ErrorType`` names the same types for handler authors (a test
keeps the two in step).
"""

from __future__ import annotations

from typing import Any

from ...exec._errors import CONFLICT, INTERNAL, NOT_FOUND, PERMISSION_DENIED, VALIDATION_ERROR, OpError

# type -> (envelope code, retryable unless the handler says otherwise)
ERROR_TYPES: dict[str, tuple[str, bool]] = {
    "VALIDATION": (VALIDATION_ERROR, False),  # the arguments are wrong in a way the schema cannot say
    "NOT_FOUND": (NOT_FOUND, False),
    "UNAUTHORIZED": (PERMISSION_DENIED, False),  # credentials are missing or were refused
    "FORBIDDEN": (PERMISSION_DENIED, False),
    "MODE_NOT_ALLOWED": (PERMISSION_DENIED, False),  # not in this mode (text, voice)
    "CONFLICT": (CONFLICT, False),  # the call contradicts the current state
    "SESSION_INACTIVE": (CONFLICT, False),  # the session it needs has ended
    "RATE_LIMITED": (CONFLICT, True),  # busy, like a locked database: try again later
    "TRANSIENT": (INTERNAL, True),  # a connection dropped, a service hiccuped
    "TIMEOUT": (INTERNAL, True),
    "UPSTREAM": (INTERNAL, True),  # a service the handler calls failed
    "INTERNAL": (INTERNAL, False),
}
UNKNOWN_TYPE = (INTERNAL, False)


class HandlerFailure(OpError):
    """A failure a handler reported; its code comes from :data:`ERROR_TYPES`."""

    def __init__(self, code: str, message: str, **kwargs: Any):
        super().__init__(message, **kwargs)
        self.code = code


def _field_errors(field: Any, message: str) -> list[dict[str, Any]]:
    if not isinstance(field, str) or not field:
        return []
    name = field.removeprefix("args.")
    return [{"field": f"args.{name}", "path": "/" + name.replace(".", "/"), "code": "invalid_value", "message": message}]


def handler_failure(error: Any, *, tool: str) -> HandlerFailure:
    """The failure an ``{"ok": false, "error": ...}`` answer (or a raised ``ToolError``) describes."""
    if not isinstance(error, dict):
        return HandlerFailure(INTERNAL, f"the handler of {tool} answered ok: false without an error object; it should say what went wrong")
    kind = error.get("type") if isinstance(error.get("type"), str) else "INTERNAL"
    code, retryable = ERROR_TYPES.get(kind.upper(), UNKNOWN_TYPE)
    if isinstance(error.get("retryable"), bool):
        retryable = error["retryable"]
    message = error.get("message") if isinstance(error.get("message"), str) and error.get("message") else f"{tool} failed ({kind})"
    details: dict[str, Any] = {"type": kind}
    if error.get("partial_side_effects") or error.get("partialSideEffects"):
        details["partial_side_effects"] = True
    if isinstance(error.get("details"), dict):
        details["tool_details"] = error["details"]
    return HandlerFailure(code, message, retryable=retryable, field_errors=_field_errors(error.get("field"), message), **details)
