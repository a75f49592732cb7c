"""exec: the dispatcher, its handlers' interface, and the envelopes it answers with."""

import typing as _typing

from .._lazy import lazy_attributes as _lazy_attributes
from ._envelope import failure, success
from ._errors import (
    CONFLICT,
    ERROR_CODES,
    INTERNAL,
    NOT_FOUND,
    PERMISSION_DENIED,
    VALIDATION_ERROR,
    ConflictError,
    InternalError,
    InvalidArguments,
    NotFoundError,
    OpError,
    PermissionDenied,
)
from ._session import Session
from ._telemetry import CallLog

if _typing.TYPE_CHECKING:
    from ._answers import AnswerField, answer_fields, answer_problems, parse_answer
    from ._confirm import Approver, Asker, ConfirmationRequest, Question
    from ._handler import Handler, HandlerContext
    from ._session_table import IDLE_SECONDS, MAX_SESSIONS, SessionTable
    from ._batch import awaits_confirmation, resuming_batch
    from ._dispatcher import Dispatcher
    from ._validation import ArgumentValidator

# Validation loads jsonschema and its format checkers, which commands that never
# run an op (help, search) should not pay for: these load on first use.
# Loaded on first use: help and search build a gateway (sessions, the call log) but never run an op.
_LAZY = {
    "Dispatcher": "._dispatcher", "ArgumentValidator": "._validation", "resuming_batch": "._batch", "awaits_confirmation": "._batch",
    **dict.fromkeys(("AnswerField", "answer_fields", "answer_problems", "parse_answer"), "._answers"),
    **dict.fromkeys(("Approver", "Asker", "ConfirmationRequest", "Question"), "._confirm"),
    **dict.fromkeys(("Handler", "HandlerContext"), "._handler"),
    **dict.fromkeys(("IDLE_SECONDS", "MAX_SESSIONS", "SessionTable"), "._session_table"),
}


__getattr__ = _lazy_attributes(__name__, globals(), _LAZY)


__all__ = [
    "CONFLICT",
    "ERROR_CODES",
    "IDLE_SECONDS",
    "INTERNAL",
    "MAX_SESSIONS",
    "NOT_FOUND",
    "PERMISSION_DENIED",
    "VALIDATION_ERROR",
    "AnswerField",
    "Approver",
    "ArgumentValidator",
    "Asker",
    "CallLog",
    "ConfirmationRequest",
    "ConflictError",
    "Dispatcher",
    "Handler",
    "HandlerContext",
    "InternalError",
    "InvalidArguments",
    "NotFoundError",
    "OpError",
    "PermissionDenied",
    "Question",
    "Session",
    "SessionTable",
    "answer_fields",
    "answer_problems",
    "awaits_confirmation",
    "failure",
    "parse_answer",
    "resuming_batch",
    "success",
]
