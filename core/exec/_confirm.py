"""Confirmation by a person, for ops that ask for it.

The approval comes from the front end (a modal, a prompt, an API callback),
never from an argument: a model cannot confirm its own call. The person sees
what will change: the call is dry-run first and the approver gets its diff.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ConfirmationRequest:
    """What the person is asked to approve."""

    op: str
    args: dict[str, Any]
    summary: str
    preview: dict[str, Any]

    @property
    def diff(self) -> dict[str, Any]:
        return self.preview.get("meta", {}).get("diff", {})

    @property
    def names(self) -> dict[str, Any]:
        """``{id: {"kind", "name"}}`` for the ids the diff mentions."""
        return self.preview.get("meta", {}).get("names", {})


Approver = Callable[[ConfirmationRequest], bool]
"""Answers whether the person confirmed; may raise ``PermissionDenied`` to refuse with its own reason (it cannot ask now,
or it asked and the answer comes with a later call: ``awaiting_confirmation``), or ``ConflictError`` when the state
changed since the person saw the diff."""


@dataclass(frozen=True)
class Question:
    """An upstream asks the person running a call for input (MCP elicitation).

    ``schema`` is the JSON Schema of the answer the upstream wants (a flat
    object of simple fields). Text in ``message`` comes from the upstream:
    show it as plain text, never as markup.
    """

    op: str
    upstream: str
    message: str
    schema: dict[str, Any]


# Answers a Question with the person's values, or None when they decline or nobody can ask.
Asker = Callable[[Question], "dict[str, Any] | None"]
