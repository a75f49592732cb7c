"""Opaque paging cursors (search, discovery, help): an offset, bound to the request and the registry it came from.

A cursor from another query, or from before the catalogue changed, is
refused rather than silently paging through a different list.
"""

from __future__ import annotations

import base64
import hashlib
import json
from typing import Any

from . import safe_json


class BadCursor(ValueError):
    pass


def _binding(registry_version: str, request: Any) -> str:
    text = registry_version + json.dumps(request, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:12]


def make_cursor(offset: int, registry_version: str, request: Any) -> str:
    payload = json.dumps({"o": offset, "b": _binding(registry_version, request)}, separators=(",", ":"))
    return base64.urlsafe_b64encode(payload.encode()).decode().rstrip("=")


def read_cursor(cursor: str | None, registry_version: str, request: Any) -> int:
    """The offset a cursor stands for (0 without one)."""
    if not cursor:
        return 0
    try:
        padded = cursor + "=" * (-len(cursor) % 4)
        payload = safe_json.loads(base64.urlsafe_b64decode(padded.encode()))
        offset = int(payload["o"])
        binding = payload["b"]
    except (ValueError, KeyError, TypeError) as exc:
        raise BadCursor("the cursor is not one this gateway gave out") from exc
    if binding != _binding(registry_version, request) or offset < 0:
        raise BadCursor("the cursor belongs to another query or an older catalogue; start again without it")
    return offset
