"""What a tool folder's ``handler.py`` imports: :class:`ToolError`, :class:`ErrorType` and :class:`ToolContext`.

A handler defines ``execute(context)`` (plain or ``async``) and answers with
``{"ok": True, "data": ...}`` or ``{"ok": False, "error": {"type", "message",
"retryable"}}``, or raises :class:`ToolError`. See ``docs/authoring.md``.

This module is the handler authors' whole API, and it is loaded in every
handler worker, so it imports nothing but the standard library: a worker
starts in tens of milliseconds instead of paying for the whole gateway.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["ErrorType", "ToolContext", "ToolError"]


class ErrorType:
    """The failure types a handler may report; each becomes one of the five envelope codes.

    The table from type to code lives in ``opgate.core.executors.python``
    (``ERROR_TYPES``) and in ``docs/authoring.md``. An unknown type becomes
    ``INTERNAL``; the type given is always kept in ``error.details.type``.
    """

    VALIDATION = "VALIDATION"
    NOT_FOUND = "NOT_FOUND"
    UNAUTHORIZED = "UNAUTHORIZED"
    FORBIDDEN = "FORBIDDEN"
    MODE_NOT_ALLOWED = "MODE_NOT_ALLOWED"
    CONFLICT = "CONFLICT"
    SESSION_INACTIVE = "SESSION_INACTIVE"
    RATE_LIMITED = "RATE_LIMITED"
    TRANSIENT = "TRANSIENT"
    TIMEOUT = "TIMEOUT"
    UPSTREAM = "UPSTREAM"
    INTERNAL = "INTERNAL"


class ToolError(Exception):
    """An expected failure, raised from ``execute``: it becomes an error envelope, not a crash.

    ``retryable`` says whether the same call may succeed later unchanged;
    ``None`` takes the type's default. ``partial_side_effects`` says the
    handler changed something before it failed. ``field`` names the argument
    at fault (for ``VALIDATION``); ``details`` is any JSON object to pass on.
    """

    def __init__(
        self,
        type: str,
        message: str,
        *,
        retryable: bool | None = None,
        partial_side_effects: bool = False,
        field: str | None = None,
        details: Mapping[str, Any] | None = None,
    ):
        super().__init__(message)
        self.type = type
        self.message = message
        self.retryable = retryable
        self.partial_side_effects = partial_side_effects
        self.field = field
        self.details = dict(details or {})

    def to_error(self) -> dict[str, Any]:
        """The ``error`` object of an ``{"ok": False, ...}`` answer that says the same thing."""
        error: dict[str, Any] = {"type": self.type, "message": self.message, "partial_side_effects": self.partial_side_effects}
        if self.retryable is not None:
            error["retryable"] = self.retryable
        if self.field:
            error["field"] = self.field
        if self.details:
            error["details"] = self.details
        return error


@dataclass(frozen=True)
class ToolContext:
    """What ``execute(context)`` receives.

    - ``args``: the arguments, already validated against ``schema.json``;
    - ``session``: a read-only snapshot of the caller's session
      (``caller``, and ``ids``: the ids it remembers, such as ``project_id``);
    - ``capabilities``: what this call may do (``writes``: a real write is
      allowed; ``dry_run``: the tool declared ``supportsDryRun``);
    - ``meta``: ``tool_id``, ``op``, ``version``, ``category``, ``timeout_s``;
    - ``dry_run``: rehearse, change nothing, and say what would change;
    - ``logger``: its records go to the gateway's log.
    """

    args: dict[str, Any]
    session: Mapping[str, Any]
    capabilities: Mapping[str, Any]
    meta: Mapping[str, Any]
    dry_run: bool
    logger: logging.Logger
