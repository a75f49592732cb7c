"""exec: the dispatcher, its handlers' interface, and the envelopes it answers with."""

from ._answers import AnswerField, answer_fields, answer_problems, parse_answer
from ._confirm import Approver, Asker, ConfirmationRequest, Question
from ._dispatcher import Dispatcher
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
from ._handler import Handler, HandlerContext
from ._session import Session
from ._telemetry import CallLog
from ._validation import ArgumentValidator

__all__ = [
    "AnswerField",
    "Asker",
    "Question",
    "answer_fields",
    "answer_problems",
    "parse_answer",
    "CONFLICT",
    "ERROR_CODES",
    "INTERNAL",
    "NOT_FOUND",
    "PERMISSION_DENIED",
    "VALIDATION_ERROR",
    "Approver",
    "ArgumentValidator",
    "CallLog",
    "Asker",
    "ConfirmationRequest",
    "Question",
    "ConflictError",
    "Dispatcher",
    "Handler",
    "HandlerContext",
    "InternalError",
    "InvalidArguments",
    "NotFoundError",
    "OpError",
    "PermissionDenied",
    "Session",
    "failure",
    "success",
]
