"""The failures exec reports, and the one place they become envelope codes.

Handlers raise these (or the store's own errors); the dispatcher maps them once,
at its edge, and never lets any exception reach its caller.
"""

from __future__ import annotations

from typing import Any

VALIDATION_ERROR = "VALIDATION_ERROR"
PERMISSION_DENIED = "PERMISSION_DENIED"
NOT_FOUND = "NOT_FOUND"
CONFLICT = "CONFLICT"
INTERNAL = "INTERNAL"
ERROR_CODES = (VALIDATION_ERROR, PERMISSION_DENIED, NOT_FOUND, CONFLICT, INTERNAL)


class OpError(Exception):
    """A failure with an envelope code, a message for the caller, and optional detail.

    ``retryable`` says whether the same call may succeed later unchanged
    (a lock held by another writer, a concurrent duplicate, a timeout).
    """

    code = INTERNAL

    def __init__(self, message: str, *, field_errors: list[dict[str, Any]] | None = None, retryable: bool = False, **details: Any):
        super().__init__(message)
        self.message = message
        self.field_errors = field_errors or []
        self.retryable = retryable
        self.details = details


class InvalidArguments(OpError):
    code = VALIDATION_ERROR


class PermissionDenied(OpError):
    code = PERMISSION_DENIED


class NotFoundError(OpError):
    code = NOT_FOUND


class ConflictError(OpError):
    code = CONFLICT


class InternalError(OpError):
    code = INTERNAL
