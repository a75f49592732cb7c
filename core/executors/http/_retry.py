"""When to try an HTTP call again, and how long to wait.

Only idempotent methods are retried (a POST that timed out may have acted),
on a connection that failed before the request reached the server, on 429
and on 503. ``Retry-After`` is honoured; no wait goes past the call's
deadline.
"""

from __future__ import annotations

import email.utils
import time

RETRY_STATUSES = frozenset({429, 503})
BACKOFF_BASE_S = 0.2
BACKOFF_MAX_S = 5.0


def retry_after_s(value: str | None) -> float | None:
    """``Retry-After`` in seconds: a number of seconds or an HTTP date; ``None`` when absent or unreadable."""
    if not value:
        return None
    value = value.strip()
    if value.isdigit():
        return float(value)
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def backoff_s(attempt: int, retry_after: str | None = None) -> float:
    """The wait before retry number ``attempt`` (0-based): the server's word, else exponential backoff."""
    told = retry_after_s(retry_after)
    if told is not None:
        return told
    return min(BACKOFF_MAX_S, BACKOFF_BASE_S * (2**attempt))
