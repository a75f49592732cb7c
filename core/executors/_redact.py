"""Secrets never leave in a preview, a log line, telemetry or an error.

Two rules, applied to anything an executor shows: a value under a key whose
name says it is secret is replaced, and any string that contains a secret
the executor knows (a configured header or environment value) has it masked.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

MASK = "***"
_SECRET_ENDINGS = ("authorization", "cookie", "token", "secret", "password", "passwd", "apikey", "privatekey", "credential", "credentials")
# Secrets shorter than this are not masked inside other strings: masking "a" would mangle everything.
_MIN_SECRET_LENGTH = 6


def is_secret_name(name: str) -> bool:
    """``Authorization``, ``api_key``, ``X-Api-Key``, ``clientSecret``; not ``max_tokens`` or ``token_count``."""
    squashed = re.sub(r"[^a-z0-9]", "", name.lower())
    return squashed.endswith(_SECRET_ENDINGS)


def redact(value: Any, secrets: Iterable[str] = ()) -> Any:
    """A copy of ``value`` with secrets masked."""
    known = sorted({s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET_LENGTH}, key=len, reverse=True)
    return _redact(value, known)


def _redact(value: Any, known: list[str]) -> Any:
    if isinstance(value, dict):
        return {k: (MASK if isinstance(k, str) and is_secret_name(k) and v not in (None, "") else _redact(v, known)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact(v, known) for v in value]
    if isinstance(value, str):
        for secret in known:
            if secret in value:
                value = value.replace(secret, MASK)
    return value


def mask_known(value: Any, secrets: Iterable[str]) -> Any:
    """A copy of ``value`` with only the known secrets masked (for results, whose key names are the upstream's business)."""
    known = sorted({s for s in secrets if isinstance(s, str) and len(s) >= _MIN_SECRET_LENGTH}, key=len, reverse=True)
    if not known:
        return value
    if isinstance(value, dict):
        return {k: mask_known(v, known) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [mask_known(v, known) for v in value]
    if isinstance(value, str):
        for secret in known:
            value = value.replace(secret, MASK)
    return value
