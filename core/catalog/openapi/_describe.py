"""Text for operations whose document says nothing about them.

Twilio leaves the description of many operations empty. Help and search
need words to work with, so an empty description is built from what the
document does say: the summary, the method and path, the parameters and the
tags.
"""

from __future__ import annotations

import re
from typing import Any

from ...registry._naming import words_of

_METHOD_VERBS = {"GET": "Get", "HEAD": "Check", "OPTIONS": "Describe", "POST": "Create or act on", "PUT": "Replace", "PATCH": "Update", "DELETE": "Delete"}


def _resource_words(path: str) -> str:
    """``/2010-04-01/Accounts/{AccountSid}/Messages/{Sid}.json`` gives ``accounts messages``."""
    segments = [s for s in path.split("/") if s and not s.startswith("{") and not re.match(r"^[\d.-]+$", s)]
    # Text for a person: a segment in another script stays as written (op names spell it; a summary need not).
    words = [" ".join(words_of(re.sub(r"\.(json|xml)$", "", s))) if s.isascii() else s for s in segments]
    return " ".join(w for w in words if w)


def describe_operation(operation: dict[str, Any], method: str, path: str, arg_names: list[str]) -> str:
    """The operation's description, or one built from its other fields when it has none."""
    description = operation.get("description")
    if isinstance(description, str) and description.strip():
        return description.strip()
    summary = operation.get("summary") if isinstance(operation.get("summary"), str) else ""
    operation_id = operation.get("operationId") if isinstance(operation.get("operationId"), str) else ""
    named = " ".join(words_of(operation_id)).capitalize() if operation_id.isascii() else " ".join(operation_id.replace("_", " ").split())
    first = summary.strip() or named or f"{_METHOD_VERBS.get(method, method)} {_resource_words(path)}".strip()
    parts = [first.rstrip(".") + ".", f"{method} {path}."]
    if arg_names:
        parts.append("Arguments: " + ", ".join(arg_names) + ".")
    tags = [t for t in operation.get("tags") or [] if isinstance(t, str)]
    if tags:
        parts.append("Tags: " + ", ".join(tags) + ".")
    return " ".join(parts)
